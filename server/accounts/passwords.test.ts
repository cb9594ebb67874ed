import { describe, expect, it } from 'vitest';
import { hashPassword, passwordMatches } from './passwords.js';

describe('passwords', () => {
  it('hashes with a fresh salt each time and checks only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    expect(await passwordMatches('correct horse', a)).toBe(true);
    expect(await passwordMatches('correct horse', b)).toBe(true);
    expect(await passwordMatches('correct hors', a)).toBe(false);
    expect(await passwordMatches('correct horse', 'plain-text')).toBe(false);
  });
});
