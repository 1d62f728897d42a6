import { fileURLToPath } from 'node:url';
import { AKSNodeClasses, NodeImageGalleries } from '@nodewright/azure';
import { type AzureMock, SeedNodeImageVersions, startAzureMock } from '@nodewright/conformance/mocks';
import { Deployments, type MergePatch, Nodes, type ResourceType } from '@nodewright/core/kube';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  conditionIsTrue,
  describeClusterE2E,
  type ExampleCluster,
  ExampleManager,
  hasTaint,
  isLive,
  isRunningPod,
  type Observed,
  startExampleCluster,
} from './src/e2e/index.js';
import { azureE2ETarget, azureMockCloud } from './src/providers/azure-e2e-target.js';
import { clusterE2EOptions } from './src/providers/report-dir.js';

// The cluster end-to-end suite for the Azure provider against the ARM mock started in this
// process: the built `nodewright controller --provider azure --set armEndpoint=<mock> ...` talks
// to it over TLS (trusting the mock's CA from `caFile`) with the real @azure/arm-compute and
// @azure/arm-network clients, and the kubelet harness registers a Node for each running VM.
// Then, on a second control plane of its own, the NodePools and AKSNodeClasses of
// examples/nodepools/azure launch on a mock (the GPU pool included), and the eviction of a Spot
// VM drains and replaces its node. Needs `pnpm build`.
const provided = inject('nodewrightCluster');
const RepoRoot = fileURLToPath(new URL('../../', import.meta.url));

describeClusterE2E(azureE2ETarget(), clusterE2EOptions(provided));

const ExampleFiles = ['general-purpose.yaml', 'arm64-batch.yaml', 'gpu.yaml'] as const;
const NodeClassType = AKSNodeClasses as unknown as ResourceType;
const ProviderID =
  /^azure:\/\/\/subscriptions\/[0-9a-f-]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.Compute\/virtualMachines\/[a-z0-9-]+$/i;

describe.skipIf(provided.external)('azure examples and spot eviction on the mock', () => {
  let mock: AzureMock;
  let c: ExampleCluster;

  beforeAll(async () => {
    mock = await startAzureMock();
    c = await startExampleCluster({
      name: 'azure-examples',
      provider: 'azure',
      cloud: await azureMockCloud(mock),
      repoRoot: RepoRoot,
    });
  });

  afterAll(async () => {
    await c?.stop();
  });

  /**
   * Waits for the arm64 pool's NodeClaim `claim` to go after `cause`, for a claim not among
   * `others` to replace it and for the pool's two pods to run again; returns the replacements.
   */
  const replacedAndRunning = async (
    claim: Observed,
    others: readonly (string | undefined)[],
    cause: string,
  ) => {
    const name = claim.metadata.name;
    await c.wait(
      `NodeClaim ${name} to be removed after the ${cause}`,
      120_000,
      () => c.claimsOf('aks-arm64-batch'),
      (cs) => cs.every((o) => o.metadata.name !== name),
    );
    const replacements = await c.wait(
      'a replacement aks-arm64-batch NodeClaim',
      120_000,
      async () => (await c.claimsOf('aks-arm64-batch')).filter((o) => !others.includes(o.metadata.name)),
      (cs) => cs.length > 0,
    );
    await c.wait(
      'aks-arm64-batch pods Running again',
      180_000,
      () => c.podsOf('aks-arm64-batch'),
      (p) => p.filter(isRunningPod).length === 2,
    );
    return replacements;
  };

  it('the NodePools and AKSNodeClasses of examples/nodepools/azure launch on the mock, the GPU pool included', async () => {
    for (const file of ExampleFiles) await c.applyExample(`examples/nodepools/azure/${file}`, NodeClassType);
    for (const nodeClass of ['default', 'arm64', 'gpu']) {
      await c.wait(
        `AKSNodeClass ${nodeClass} Ready`,
        60_000,
        () => c.env.cluster.get<Observed>(NodeClassType, { name: nodeClass }),
        (nc) => conditionIsTrue(nc, 'Ready'),
      );
    }
    // The controller resolved each family's image to the gallery's latest published version.
    const latest = SeedNodeImageVersions.at(-1)!.name;
    const gpuClass = await c.env.cluster.get<Observed & { status?: { images?: { id: string }[] } }>(
      NodeClassType,
      { name: 'gpu' },
    );
    expect(gpuClass.status?.images?.map((i) => i.id)).toEqual([
      `/CommunityGalleries/${NodeImageGalleries.AzureLinux}/images/V2gen2/versions/${latest}`,
      `/CommunityGalleries/${NodeImageGalleries.AzureLinux}/images/V2gen2arm64/versions/${latest}`,
    ]);
    const deployments = [
      ['aks-general-purpose', 2, {}],
      ['aks-arm64-batch', 2, {}],
      ['aks-gpu', 1, { resources: { 'nvidia.com/gpu': '1' } }],
    ] as const;
    for (const [pool, replicas, extra] of deployments) {
      await c.env.cluster.apply(Deployments, c.exampleDeployment(pool, replicas, extra), ExampleManager);
    }
    for (const [pool, replicas] of deployments) {
      const pods = await c.wait(
        `${pool} pods Running`,
        180_000,
        () => c.podsOf(pool),
        (p) => p.length === replicas && p.every(isRunningPod),
      );
      for (const pod of pods) {
        const node = (await c.nodeOf(pod)) as Observed & {
          status?: { allocatable?: Record<string, string> };
        };
        const labels = node.metadata.labels ?? {};
        expect(labels['karpenter.sh/nodepool']).toBe(pool);
        expect(String((node.spec as { providerID?: string })?.providerID)).toMatch(ProviderID);
        expect(labels['topology.kubernetes.io/zone']).toMatch(/^eastus-[123]$/);
        if (pool === 'aks-general-purpose') {
          expect(['D', 'E', 'F']).toContain(labels['karpenter.azure.com/sku-family']);
          expect(Number(labels['karpenter.azure.com/sku-version'])).toBeGreaterThan(4);
        }
        if (pool === 'aks-arm64-batch') {
          expect(labels['kubernetes.io/arch']).toBe('arm64');
          expect(labels['karpenter.sh/capacity-type']).toBe('spot');
        }
        if (pool === 'aks-gpu') {
          expect(labels['karpenter.sh/capacity-type']).toBe('on-demand');
          expect(Number(labels['karpenter.azure.com/sku-gpu-count'])).toBeGreaterThanOrEqual(1);
          expect(hasTaint(node, 'nvidia.com/gpu')).toBe(true);
          expect(Number(node.status?.allocatable?.['nvidia.com/gpu'])).toBeGreaterThanOrEqual(1);
        }
      }
    }
    // Every VM was launched from its NodeClass's resolved image, at the gallery's latest version.
    for (const vm of mock.state.vms.values()) {
      const image = (
        vm.properties as { storageProfile?: { imageReference?: { communityGalleryImageId?: string } } }
      ).storageProfile?.imageReference?.communityGalleryImageId;
      expect(image, vm.name).toMatch(
        new RegExp(`^/CommunityGalleries/AKS.*/versions/${latest.replaceAll('.', '\\.')}$`),
      );
    }
    // Every VM the mock runs was made with a Spot/Regular priority matching its Node's label.
    const spot = [...mock.state.running.values()].filter((vm) => vm.priority === 'Spot');
    expect(spot.length).toBeGreaterThanOrEqual(2);
  });

  it('a Spot VM evicted without warning is noticed: its NodeClaim goes and a replacement runs its pods', async () => {
    const [claim] = (await c.claimsOf('aks-arm64-batch')).filter(isLive);
    expect(claim, 'an aks-arm64-batch NodeClaim from the previous test').toBeDefined();
    const labels = claim!.metadata.labels ?? {};
    expect(labels['karpenter.sh/capacity-type']).toBe('spot');
    const providerID = String((claim!.status as { providerID?: string } | undefined)?.providerID);
    const name = providerID.slice(providerID.lastIndexOf('/') + 1);
    const others = (await c.claimsOf('aks-arm64-batch')).map((o) => o.metadata.name);
    mock.evict(name);
    expect(mock.state.evicted).toContain(name);

    const replacements = await replacedAndRunning(claim!, others, 'eviction');
    // Evicted without warning, the node is gone before the watcher's next ARM list: the
    // replacement may be launched before the offering is marked unavailable, so only a
    // replacement is asserted here.
    expect(replacements.length).toBeGreaterThan(0);
    expect(mock.state.vms.has(`${mock.resourceGroup.toLowerCase()}/${name}`)).toBe(false);
  });

  it('a Preempt scheduled event on a Spot node drains and replaces it ahead of the eviction, off the preempted offering', async () => {
    const [claim] = (await c.claimsOf('aks-arm64-batch')).filter(isLive);
    expect(claim, 'a live aks-arm64-batch NodeClaim').toBeDefined();
    const labels = claim!.metadata.labels ?? {};
    const offering = {
      instanceType: labels['node.kubernetes.io/instance-type'],
      zone: labels['topology.kubernetes.io/zone'],
      capacityType: labels['karpenter.sh/capacity-type'],
    };
    const nodeName = String((claim!.status as { nodeName?: string } | undefined)?.nodeName);
    const others = (await c.claimsOf('aks-arm64-batch')).map((o) => o.metadata.name);
    // Plays AKS's node problem detector, which turns the VM's Scheduled Events into conditions.
    await c.env.cluster.patchStatus(Nodes, { name: nodeName }, {
      status: {
        conditions: [
          {
            type: 'PreemptScheduled',
            status: 'True',
            reason: 'Preempt',
            message: 'Scheduled event Preempt, NotBefore in 30s',
            lastHeartbeatTime: new Date().toISOString(),
            lastTransitionTime: new Date().toISOString(),
          },
        ],
      },
    } as unknown as MergePatch);
    const replacements = await replacedAndRunning(claim!, others, 'Preempt');
    for (const r of replacements) {
      const l = r.metadata.labels ?? {};
      expect({
        instanceType: l['node.kubernetes.io/instance-type'],
        zone: l['topology.kubernetes.io/zone'],
        capacityType: l['karpenter.sh/capacity-type'],
      }).not.toEqual(offering);
    }
    expect(
      c.controller
        .entries()
        .some(
          (e) =>
            e.message === 'disrupting nodeclaim: interruption' &&
            e.kind === 'SpotInterruption' &&
            (e.NodeClaim as { name?: string } | undefined)?.name === claim!.metadata.name,
        ),
      'the controller logs the interruption of the NodeClaim',
    ).toBe(true);
  });
});
