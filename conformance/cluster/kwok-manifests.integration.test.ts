import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { applyManifest } from './src/apply.js';
import { KIND_NODE_TAINT } from './src/kind-cluster.js';
import { KubeHttpClient } from './src/kube-http.js';
import { kwokInClusterManifests } from './src/kwok-manifests.js';
import { DEFAULT_STAGE_OPTIONS, kwokStages } from './src/kwok-stages.js';
import { loadKubeconfig } from './src/load-kubeconfig.js';

// The objects the kind target installs (deploy/kind/install-kwok.sh), checked against a real
// API server without Docker: the Stage CRD is applied for real (and removed again if this test
// created it), everything else is applied with dryRun=All, so the server validates and admits
// it but nothing runs.

const cluster = inject('nodewrightCluster');
const manifests = kwokInClusterManifests({
  stages: kwokStages({ ...DEFAULT_STAGE_OPTIONS, kubeletVersion: 'v1.36.5' }),
  tolerateTaintKeys: [KIND_NODE_TAINT.key],
});
const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${manifests.crd.metadata.name}`;
const poll = { timeout: 60_000, interval: 250 };

let client: KubeHttpClient;
let crdExisted = true;

beforeAll(async () => {
  client = new KubeHttpClient(await loadKubeconfig(cluster.kubeconfigPath));
  // On a cluster that runs kwok from these objects (the kind target) the CRD stays.
  crdExisted = (await client.get(crdPath)).status === 200;
});

afterAll(async () => {
  if (!client) return;
  if (!crdExisted) await client.delete(crdPath);
  client.close();
});

describe('kwok in-cluster manifests against a real API server', () => {
  it('the Stage CRD is accepted and becomes Established', async () => {
    await applyManifest(client, manifests.crd);
    await expect
      .poll(
        async () =>
          (
            await client.get<{ status?: { conditions?: { type: string; status: string }[] } }>(crdPath)
          ).body.status?.conditions?.find((c) => c.type === 'Established')?.status,
        poll,
      )
      .toBe('True');
  });

  it("admits the binary cluster's stages as Stage objects", async () => {
    for (const stage of manifests.stages) {
      // A CR is served a moment after its CRD is Established.
      await expect
        .poll(async () => {
          try {
            await applyManifest(client, stage, { dryRun: true });
            return 'accepted';
          } catch (error) {
            return (error as Error).message;
          }
        }, poll)
        .toBe('accepted');
    }
  });

  it('admits the ServiceAccount, ClusterRole, ClusterRoleBinding and Deployment', async () => {
    for (const manifest of [...manifests.rbac, manifests.deployment]) {
      await expect(applyManifest(client, manifest, { dryRun: true })).resolves.toBeUndefined();
    }
  });

  it('rejects a Stage without a spec, so the schema is in force', async () => {
    const broken = { ...manifests.stages[0]!, metadata: { name: 'nw-no-spec' } } as Record<string, unknown>;
    delete broken.spec;
    await expect(applyManifest(client, broken as typeof manifests.crd, { dryRun: true })).rejects.toThrow(
      /answered 422/,
    );
  });
});
