import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import awsProviderPlugin, { EC2NodeClasses } from '@nodewright/aws';
import { type AwsMock, startAwsMock } from '@nodewright/conformance/mocks/aws';
import { Deployments, type ResourceType, type UntypedObject } from '@nodewright/core/kube';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inClusterLauncher } from '../install/src/in-cluster-launcher.js';
import { kindNetworkHost } from '../install/src/kind-network.js';
import {
  conditionIsTrue,
  describeClusterE2E,
  type ExampleCluster,
  ExampleManager,
  hasTaint,
  isLive,
  isRunningPod,
  NodePoolType,
  type Observed,
  startExampleCluster,
} from './src/e2e/index.js';
import { awsE2ETarget, awsMockCloud } from './src/providers/aws-e2e-target.js';
import { clusterE2EOptions } from './src/providers/report-dir.js';

// The cluster end-to-end suite for the AWS provider against the EC2/Pricing/SQS mock started in
// this process: the controller, installed with the charts on a kind cluster of its own and run
// as Pods of the chart's Deployment (install/src/in-cluster-launcher.ts), talks to it with the
// real SDK at the host's address on the kind network, its static keys read from a Secret; the
// kubelet harness registers a Node for each running instance. (On a cluster the run was given,
// NODEWRIGHT_KUBECONFIG, the controller runs as processes of the built CLI beside a local mock.)
// Then, on a second control plane of its own, the example NodePools and EC2NodeClasses of
// examples/nodepools/aws launch on a mock seeded for their `my-cluster` discovery tags (gpu.yaml's
// pool once the kubelet harness, playing its GPU driver DaemonSet, lifts the startup taint), and
// a spot interruption on the mock's SQS queue drains and replaces a node. Needs `pnpm build`.
const provided = inject('nodewrightCluster');
const RepoRoot = fileURLToPath(new URL('../../', import.meta.url));

describeClusterE2E(
  provided.external ? awsE2ETarget() : awsE2ETarget({}, kindNetworkHost),
  provided.external
    ? clusterE2EOptions(provided)
    : {
        ...clusterE2EOptions(provided),
        clusterTarget: 'kind',
        launcher: inClusterLauncher({ secretSettings: awsProviderPlugin.secretSettings ?? [] }),
      },
);

/**
 * The example files launched here: the mock's seed satisfies each one's EC2NodeClass (its AMI
 * alias, subnet and security group selectors) and has instance types its NodePool allows.
 */
const ExampleFiles = ['general-purpose.yaml', 'arm64-batch.yaml', 'gpu.yaml'] as const;
/**
 * gpu.yaml's startup taint: a GPU driver DaemonSet removes it once the driver is loaded, and
 * until then the Node is not Initialized. The kubelet harness plays that DaemonSet.
 */
const GpuDriverTaint = 'node.example.com/gpu-driver-not-ready';
/** How long the simulated driver takes to load after the Node registers. */
const GpuDriverLoadMs = 2_000;
const GpuFamilies = ['g5', 'g6', 'p4d', 'p5'];

describe.skipIf(provided.external)('aws examples and interruption on the mock', () => {
  let mock: AwsMock;
  let c: ExampleCluster;

  beforeAll(async () => {
    mock = await startAwsMock({ cluster: 'my-cluster' });
    c = await startExampleCluster({
      name: 'aws-examples',
      provider: 'aws',
      cloud: awsMockCloud(mock),
      repoRoot: RepoRoot,
      startupTaintRemoval: { keys: [GpuDriverTaint], afterMs: GpuDriverLoadMs },
    });
  });

  afterAll(async () => {
    await c?.stop();
  });

  it('the NodePools and EC2NodeClass of examples/nodepools/aws launch on the mock: pods Running on their Nodes', async () => {
    // Both files name EC2NodeClass `default`; the first applied wins, as in a real cluster.
    for (const file of ExampleFiles) {
      await c.applyExample(join('examples/nodepools/aws', file), EC2NodeClasses as unknown as ResourceType);
    }
    for (const nodeClass of ['default', 'gpu']) {
      await c.wait(
        `EC2NodeClass ${nodeClass} Ready`,
        60_000,
        () => c.env.cluster.get<Observed>(EC2NodeClasses as unknown as ResourceType, { name: nodeClass }),
        (nc) => conditionIsTrue(nc, 'Ready'),
      );
    }
    const pools = ['general-purpose', 'arm64-batch'];
    for (const pool of pools)
      await c.env.cluster.apply(Deployments, c.exampleDeployment(pool, 2), ExampleManager);
    for (const pool of pools) {
      const pods = await c.wait(
        `${pool} pods Running`,
        180_000,
        () => c.podsOf(pool),
        (p) => p.length === 2 && p.every(isRunningPod),
      );
      for (const pod of pods) {
        const node = await c.nodeOf(pod);
        expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBe(pool);
        expect(String((node.spec as { providerID?: string })?.providerID)).toMatch(
          /^aws:\/\/\/[a-z0-9-]+\/i-[0-9a-f]+$/,
        );
        if (pool === 'arm64-batch') {
          expect(node.metadata.labels?.['kubernetes.io/arch']).toBe('arm64');
          expect(node.metadata.labels?.['karpenter.sh/capacity-type']).toBe('spot');
        }
        expect(['c', 'm', 'r']).toContain(node.metadata.labels?.['karpenter.k8s.aws/instance-category']);
      }
    }
  });

  it('gpu.yaml launches: a pod requesting nvidia.com/gpu runs on a GPU Node once the driver DaemonSet lifted the startup taint', async () => {
    const pool = await c.env.cluster.get<UntypedObject>(NodePoolType, { name: 'gpu' });
    const template = (pool.spec as { template: { spec: { startupTaints?: { key: string }[] } } }).template;
    expect(
      template.spec.startupTaints?.map((t) => t.key),
      'the harness lifts the taint gpu.yaml starts its nodes with',
    ).toEqual([GpuDriverTaint]);
    // Tolerates the pool's own taint only: the pod can run once the driver taint is gone.
    await c.env.cluster.apply(
      Deployments,
      c.exampleDeployment('gpu', 1, {
        tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        resources: { 'nvidia.com/gpu': '1' },
      }),
      ExampleManager,
    );
    const [pod] = await c.wait(
      'the gpu pod Running',
      180_000,
      () => c.podsOf('gpu'),
      (p) => p.length === 1 && p.every(isRunningPod),
    );
    const node = (await c.nodeOf(pod!)) as Observed & {
      status?: { allocatable?: Record<string, string> };
    };
    const labels = node.metadata.labels ?? {};
    expect(labels['karpenter.sh/nodepool']).toBe('gpu');
    expect(labels['nvidia.com/gpu.present']).toBe('true');
    expect(labels['karpenter.sh/capacity-type']).toBe('on-demand');
    expect(GpuFamilies).toContain(labels['karpenter.k8s.aws/instance-family']);
    expect(Number(node.status?.allocatable?.['nvidia.com/gpu'])).toBeGreaterThanOrEqual(1);
    expect(hasTaint(node, 'nvidia.com/gpu')).toBe(true);
    expect(hasTaint(node, GpuDriverTaint)).toBe(false);
    const [claim, ...more] = (await c.claimsOf('gpu')).filter(isLive);
    expect(more).toEqual([]);
    expect(claim?.status?.nodeName).toBe(node.metadata.name);
    expect(conditionIsTrue(claim!, 'Initialized')).toBe(true);
  });

  it('a spot interruption on the SQS queue drains and replaces the node, and the interrupted offering is not launched again', async () => {
    const [claim] = (await c.claimsOf('arm64-batch')).filter(isLive);
    expect(claim, 'an arm64-batch NodeClaim from the previous test').toBeDefined();
    const labels = claim!.metadata.labels ?? {};
    const offering = {
      instanceType: labels['node.kubernetes.io/instance-type'],
      zone: labels['topology.kubernetes.io/zone'],
      capacityType: labels['karpenter.sh/capacity-type'],
    };
    expect(offering.capacityType).toBe('spot');
    const providerID = String((claim!.status as { providerID?: string } | undefined)?.providerID);
    const instanceId = providerID.slice(providerID.lastIndexOf('/') + 1);
    const others = (await c.claimsOf('arm64-batch')).filter((c) => c.metadata.name !== claim!.metadata.name);
    mock.pushInterruption(mock.events.spotInterruption(instanceId));

    await c.wait(
      `NodeClaim ${claim!.metadata.name} to be removed after the interruption`,
      120_000,
      () => c.claimsOf('arm64-batch'),
      (cs) => cs.every((c) => c.metadata.name !== claim!.metadata.name),
    );
    const oldNode = String((claim!.status as { nodeName?: string } | undefined)?.nodeName);
    const nodeNameOf = (pod: Observed) => (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    const isNew = (c: Observed) =>
      c.metadata.name !== claim!.metadata.name && !others.some((o) => o.metadata.name === c.metadata.name);
    const replacements = await c.wait(
      'a replacement arm64-batch NodeClaim',
      120_000,
      async () => (await c.claimsOf('arm64-batch')).filter(isNew),
      (cs) => cs.length > 0,
    );
    // A pod of the gone Node may still be listed for a while; the moved pod runs on another Node.
    const pods = await c.wait(
      'arm64-batch pods Running on live Nodes',
      180_000,
      async () => (await c.podsOf('arm64-batch')).filter((pod) => nodeNameOf(pod) !== oldNode),
      (p) => p.length === 2 && p.every(isRunningPod),
    );
    expect(mock.ec2.instances.get(instanceId)?.state).toMatch(/shutting-down|terminated/);
    for (const r of replacements) {
      const l = r.metadata.labels ?? {};
      expect({
        instanceType: l['node.kubernetes.io/instance-type'],
        zone: l['topology.kubernetes.io/zone'],
        capacityType: l['karpenter.sh/capacity-type'],
      }).not.toEqual(offering);
    }
    for (const pod of pods)
      expect((await c.nodeOf(pod)).metadata.labels?.['kubernetes.io/arch']).toBe('arm64');
    expect(pods.map(nodeNameOf)).not.toContain(oldNode);
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
