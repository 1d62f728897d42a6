import { repoRoot } from './helm.js';

/** The first lines of each deploy/rbac/<provider>.yaml: where it comes from. */
export const RbacManifestHeader =
  '# Generated from charts/nodewright (templates/serviceaccount.yaml and templates/rbac.yaml) for\n' +
  '# release "nodewright" in namespace "nodewright"; do not edit. Regenerate with\n' +
  '# UPDATE_RBAC=1 pnpm exec vitest run --project integration conformance/install/chart.integration.test.ts\n';

/** The plain RBAC manifests of one provider, for clusters installed without helm. */
export function rbacManifestPath(provider: string): string {
  return `${repoRoot}deploy/rbac/${provider}.yaml`;
}
