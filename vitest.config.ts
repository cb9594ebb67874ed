import { defineConfig } from 'vitest/config';

/**
 * Checks of time that a file running beside them on two cores would spoil (a console change in
 * 300 ms, a move answered within a second through a failover): they run after the rest, one at a time.
 */
const ALONE = ['test/browser/admin-scale.test.ts', 'test/server/cluster-faults.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/setup/global.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['shared/**/*.test.ts', 'bots/**/*.test.ts', 'server/**/*.test.ts', 'client-demo/src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...ALONE, '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
