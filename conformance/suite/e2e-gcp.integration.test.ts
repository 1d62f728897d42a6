import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as gcp from '@nodewright/conformance/mocks/gcp';
import { Deployments, type ResourceType } from '@nodewright/core/kube';
import { GCENodeClasses } from '@nodewright/gcp';
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
import { gcpE2ETarget, gcpMockCloud } from './src/providers/gcp-e2e-target.js';
import { clusterE2EOptions } from './src/providers/report-dir.js';

// The cluster end-to-end suite for the GCP provider against the Compute Engine mock started in
// this process: the built `nodewright controller --provider gcp --set endpoint=<mock> ...` talks
// to it with the real @google-cloud/compute clients, and the kubelet harness registers a Node for
// each running VM. Then, on a second control plane of its own, the NodePools and GCENodeClasses
// of examples/nodepools/gcp launch on a mock (the GPU pool included), and a preemption of a spot
// VM drains and replaces its node. Needs `pnpm build`.
const provided = inject('nodewrightCluster');
const RepoRoot = fileURLToPath(new URL('../../', import.meta.url));

describeClusterE2E(gcpE2ETarget(), clusterE2EOptions(provided));

const ExampleFiles = ['general-purpose.yaml', 'arm64-batch.yaml', 'gpu.yaml'] as const;

describe.skipIf(provided.external)('gcp examples and preemption on the mock', () => {
  let mock: gcp.GcpMock;
  let c: ExampleCluster;

  const exampleDeployment = (pool: string, replicas: number, resources: Record<string, string> = {}) =>
    c.exampleDeployment(pool, replicas, { resources });

  beforeAll(async () => {
    // A preempted VM stops 30 s after GCE records the preemption, as GCE gives it.
    mock = await gcp.startGcpMock({ project: 'contract-project', timings: { stopMs: 30_000 } });
    c = await startExampleCluster({
      name: 'gcp-examples',
      provider: 'gcp',
      cloud: gcpMockCloud(mock),
      repoRoot: RepoRoot,
    });
  });

  afterAll(async () => {
    await c?.stop();
  });

  it('the NodePools and GCENodeClasses of examples/nodepools/gcp launch on the mock, the GPU pool included', async () => {
    for (const file of ExampleFiles) {
      await c.applyExample(join('examples/nodepools/gcp', file), GCENodeClasses as unknown as ResourceType);
    }
    for (const nodeClass of ['default', 'arm64', 'gpu']) {
      await c.wait(
        `GCENodeClass ${nodeClass} Ready`,
        60_000,
        () => c.env.cluster.get<Observed>(GCENodeClasses as unknown as ResourceType, { name: nodeClass }),
        (nc) => conditionIsTrue(nc, 'Ready'),
      );
    }
    await c.env.cluster.apply(Deployments, exampleDeployment('general-purpose', 2), ExampleManager);
    await c.env.cluster.apply(Deployments, exampleDeployment('arm64-batch', 2), ExampleManager);
    await c.env.cluster.apply(
      Deployments,
      exampleDeployment('gpu', 1, { 'nvidia.com/gpu': '1' }),
      ExampleManager,
    );
    for (const [pool, replicas] of [
      ['general-purpose', 2],
      ['arm64-batch', 2],
      ['gpu', 1],
    ] as const) {
      const pods = await c.wait(
        `${pool} pods Running`,
        180_000,
        () => c.podsOf(pool),
        (p) => p.length === replicas && p.every(isRunningPod),
      );
      for (const pod of pods) {
        const node = await c.nodeOf(pod);
        const labels = node.metadata.labels ?? {};
        expect(labels['karpenter.sh/nodepool']).toBe(pool);
        expect(String((node.spec as { providerID?: string })?.providerID)).toMatch(
          /^gce:\/\/contract-project\/us-central1-[a-f]\/[a-z0-9-]+$/,
        );
        if (pool === 'arm64-batch') {
          expect(labels['kubernetes.io/arch']).toBe('arm64');
          expect(labels['karpenter.sh/capacity-type']).toBe('spot');
          expect(labels['karpenter.k8s.gcp/instance-family']).toBe('t2a');
        }
        if (pool === 'general-purpose') {
          expect(['e2', 'n2', 'n2d', 'n4']).toContain(labels['karpenter.k8s.gcp/instance-family']);
        }
        if (pool === 'gpu') {
          expect(labels['karpenter.k8s.gcp/instance-family']).toBe('g2');
          expect(labels['karpenter.sh/capacity-type']).toBe('on-demand');
          expect(hasTaint(node, 'nvidia.com/gpu')).toBe(true);
          const allocatable = (node as { status?: { allocatable?: Record<string, string> } }).status
            ?.allocatable;
          expect(Number(allocatable?.['nvidia.com/gpu'])).toBeGreaterThanOrEqual(1);
        }
      }
    }
  });

  it('a preempted spot VM is drained and replaced, and the preempted offering is not launched again', async () => {
    const [claim] = (await c.claimsOf('arm64-batch')).filter(isLive);
    expect(claim, 'an arm64-batch NodeClaim from the previous test').toBeDefined();
    const labels = claim!.metadata.labels ?? {};
    const offering = {
      instanceType: labels['node.kubernetes.io/instance-type'],
      zone: labels['topology.kubernetes.io/zone'],
      capacityType: labels['karpenter.sh/capacity-type'],
    };
    const providerID = String((claim!.status as { providerID?: string } | undefined)?.providerID);
    const name = providerID.slice(providerID.lastIndexOf('/') + 1);
    const others = (await c.claimsOf('arm64-batch')).map((c) => c.metadata.name);
    mock.compute.preempt(String(offering.zone), name);
    await c.wait(
      `NodeClaim ${claim!.metadata.name} to be removed after the preemption`,
      120_000,
      () => c.claimsOf('arm64-batch'),
      (cs) => cs.every((c) => c.metadata.name !== claim!.metadata.name),
    );
    const replacements = await c.wait(
      'a replacement arm64-batch NodeClaim',
      120_000,
      async () => (await c.claimsOf('arm64-batch')).filter((c) => !others.includes(c.metadata.name)),
      (cs) => cs.length > 0,
    );
    for (const r of replacements) {
      const l = r.metadata.labels ?? {};
      expect({
        instanceType: l['node.kubernetes.io/instance-type'],
        zone: l['topology.kubernetes.io/zone'],
        capacityType: l['karpenter.sh/capacity-type'],
      }).not.toEqual(offering);
    }
    await c.wait(
      'arm64-batch pods Running again',
      180_000,
      () => c.podsOf('arm64-batch'),
      (p) => p.filter(isRunningPod).length === 2,
    );
    expect(
      c.controller
        .entries()
        .some((e) => e.message === 'disrupting nodeclaim: interruption' && e.kind === 'SpotInterruption'),
      'the controller logs the interruption',
    ).toBe(true);
  });
});
