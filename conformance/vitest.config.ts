// For running the cluster tests on their own until the root config wires the globalSetup:
//   pnpm exec vitest run --config conformance/vitest.config.ts --project integration conformance/cluster
// Mirrors the root integration project, plus the cluster globalSetup.
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
