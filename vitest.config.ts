import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'bots/**/*.test.ts', 'server/**/*.test.ts', 'client-demo/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/setup/global.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
