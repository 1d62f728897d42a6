import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          include: ['test/**/*.test.ts'],
          exclude: ['test/cluster-e2e.test.ts'],
        },
      },
      {
        // A real control plane: started once per run (built from Go modules on first use and
        // cached in ~/.cache/nodewright/cluster), and a controller per test; minutes, not seconds.
        test: {
          name: 'e2e',
          include: ['test/cluster-e2e.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
