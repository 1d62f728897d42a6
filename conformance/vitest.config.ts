// The root vitest.config.ts's integration project (same cluster globalSetup, timeouts and
// resolve conditions) narrowed to conformance/: `vitest run --config conformance/vitest.config.ts
// --project integration` runs every conformance integration test and none of packages/ or
// providers/. The root config is what the documented commands and CI use.
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@nodewright/source', ...defaultServerConditions];
// As the root config: `module` among Node's --conditions loads the AWS SDK's bundler-only build.
const nodeConditions = conditions.filter((c) => c !== 'module');

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { conditions },
  ssr: { resolve: { conditions: nodeConditions, externalConditions: nodeConditions } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['conformance/**/*.integration.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          globalSetup: ['conformance/cluster/global-setup.ts'],
        },
      },
    ],
  },
});
