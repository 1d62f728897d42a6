import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests import workspace packages from their TypeScript sources (the `@nodewright/source`
// export condition), so `vitest` never depends on a stale `dist/`.
const conditions = ['@nodewright/source', ...defaultServerConditions];
// Vitest starts its workers with the SSR conditions as Node `--conditions`; `module` there makes
// Node load bundler-only ESM builds (the AWS SDK's dist-es, with extensionless imports), so the
// SSR side leaves it out.
const nodeConditions = conditions.filter((c) => c !== 'module');

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions: nodeConditions, externalConditions: nodeConditions } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{packages,providers,conformance}/**/src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**', '**/dist/**'],
          // A guard against hangs, not a speed check: property tests share two cores with the
          // integration project's control plane and controllers, and 5 s is too tight there.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // Builds (once, cached) and starts the real control plane; see conformance/cluster.
          globalSetup: ['conformance/cluster/global-setup.ts'],
          include: ['{packages,providers,conformance}/**/*.integration.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
