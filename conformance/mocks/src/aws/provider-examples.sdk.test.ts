import { readdirSync, readFileSync } from 'node:fs';
import {
  awsClients,
  createAwsProvider,
  type EC2NodeClass,
  EC2NodeClasses,
  ec2NodeClassSchema,
  instanceProfileNameForRole,
  parseAwsSettings,
} from '@nodewright/aws';
import { type NodeClaim, type NodePool, nodeClaimKind, nodePoolSchema } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { MemoryCluster, resourceTypeOf } from '@nodewright/core/kube';
import { decodeManifests } from '@nodewright/core/manifests';
import { createLogger, type ProviderInstance, RecordingEventRecorder } from '@nodewright/core/operator';
import { aNodeClaimFor, ControllerEnv, reconcileContext } from '@nodewright/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from './aws-mock.js';

// Every example under examples/nodepools/aws, on the mock, through the provider as the plugin
// composes it (real SDK clients for EC2, Pricing, SQS, IAM and SSM): each EC2NodeClass turns
// Ready (subnets, groups, AMIs, an instance profile created in IAM), and a NodeClaim of each
// NodePool launches.
const ExamplesDir = new URL('../../../../examples/nodepools/aws/', import.meta.url);
const NodeClaims = resourceTypeOf<NodeClaim>(nodeClaimKind);
const PriceRefreshTimeoutMs = 15_000;

interface Examples {
  readonly nodeClasses: EC2NodeClass[];
  readonly nodePools: NodePool[];
}

function readExamples(): Examples {
  const nodeClasses: EC2NodeClass[] = [];
  const nodePools: NodePool[] = [];
  for (const file of readdirSync(ExamplesDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const set = decodeManifests(file, readFileSync(new URL(file, ExamplesDir), 'utf8'));
    expect(set.errors).toEqual([]);
    for (const m of set.manifests) {
      if (m.kind === 'EC2NodeClass') nodeClasses.push(ec2NodeClassSchema.parse(m.object));
      if (m.kind === 'NodePool') nodePools.push(nodePoolSchema.parse(m.object));
    }
  }
  return { nodeClasses, nodePools };
}

let mock: AwsMock;
let cluster: MemoryCluster;
let provider: ProviderInstance;
const logger = createLogger({ level: 'silent' });
const context = reconcileContext({ logger });

async function reconcile(name: string): Promise<void> {
  for (const controller of provider.controllers) await controller.reconcile({ name }, context);
}

/** The provider starts on its static price table, which may lack the mock's types; waits for GetProducts. */
async function pricesLoaded(pools: readonly NodePool[]): Promise<void> {
  const deadline = Date.now() + PriceRefreshTimeoutMs;
  while (Date.now() < deadline) {
    const types = (await Promise.all(pools.map((p) => provider.cloudProvider.getInstanceTypes(p)))).flat();
    if (types.length > 0 && types.every((t) => t.offerings.every((o) => Number.isFinite(o.price)))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeEach(async () => {
  mock = await startAwsMock({ cluster: 'my-cluster', timings: { startMs: 0 } });
  const clock = new SystemClock();
  cluster = new MemoryCluster({ clock, kinds: [EC2NodeClasses, NodeClaims] });
  const settings = parseAwsSettings({
    region: mock.region,
    endpoint: mock.endpoint,
    accessKeyId: mock.clientConfig.credentials.accessKeyId,
    secretAccessKey: mock.clientConfig.credentials.secretAccessKey,
    kubernetesVersion: mock.seed.kubernetesVersion,
    clusterEndpoint: 'https://api.my-cluster.example.com',
    caBundle: Buffer.from('example CA').toString('base64'),
  });
  provider = createAwsProvider(
    {
      cluster,
      clock,
      timers: new SystemTimers(),
      logger,
      registry: new ControllerEnv().registry,
      events: new RecordingEventRecorder(),
      clusterName: 'my-cluster',
      settings: {},
      unavailableOfferings: new UnavailableOfferingsCache(clock),
    },
    settings,
    await awsClients(settings),
  );
});

afterEach(async () => {
  await provider.close?.();
  await mock.close();
});

describe('examples/nodepools/aws on the AWS mock', () => {
  it('every EC2NodeClass turns Ready and a NodeClaim of every NodePool launches', async () => {
    const { nodeClasses, nodePools } = readExamples();
    expect(nodeClasses.map((n) => n.metadata.name).sort()).toEqual(['default', 'gpu']);
    expect(nodePools.map((p) => p.metadata.name).sort()).toEqual(['arm64-batch', 'general-purpose', 'gpu']);
    for (const nodeClass of nodeClasses) {
      await cluster.create(EC2NodeClasses, nodeClass);
      await reconcile(nodeClass.metadata.name ?? '');
      const resolved = await cluster.get(EC2NodeClasses, { name: nodeClass.metadata.name ?? '' });
      expect(
        resolved.status?.conditions?.find((c) => c.type === 'Ready'),
        `EC2NodeClass ${nodeClass.metadata.name}`,
      ).toMatchObject({ status: 'True' });
    }
    const gpu = await cluster.get(EC2NodeClasses, { name: 'gpu' });
    expect(gpu.status?.securityGroups?.map((g) => g.id)).toEqual(['sg-0123456789abcdef0']);
    expect(gpu.status?.subnets).toHaveLength(3);
    expect(gpu.status?.amis?.map((a) => a.name)).toContain(
      'amazon-eks-node-al2023-x86_64-nvidia-1.34-v20250101',
    );

    await pricesLoaded(nodePools);
    for (const pool of nodePools) {
      const name = pool.metadata.name ?? '';
      const created = await provider.cloudProvider.create(
        aNodeClaimFor(pool, { metadata: { name: `${name}-1` } }),
      );
      expect(created.status?.providerID, name).toMatch(/^aws:\/\/\/us-east-1[a-c]\/i-[0-9a-f]{17}$/);
      const family = created.metadata.labels?.['karpenter.k8s.aws/instance-family'] ?? '';
      if (name === 'gpu') {
        expect(['g5', 'g6', 'p4d', 'p5']).toContain(family);
        expect(created.status?.capacity?.['nvidia.com/gpu']).toBeDefined();
      }
      if (name === 'arm64-batch') expect(created.metadata.labels?.['kubernetes.io/arch']).toBe('arm64');
    }
  });

  it('creates the instance profile holding the role, and deletes it with the NodeClass', async () => {
    const { nodeClasses, nodePools } = readExamples();
    const nodeClass = nodeClasses.find((n) => n.metadata.name === 'gpu');
    if (nodeClass === undefined) throw new Error('examples: no EC2NodeClass gpu');
    await cluster.create(EC2NodeClasses, nodeClass);
    await reconcile('gpu');
    const profileName = instanceProfileNameForRole('my-cluster', mock.region, 'gpu');
    const profile = mock.iam.instanceProfiles.get(profileName);
    expect(profile?.roles).toEqual(['KarpenterNodeRole-my-cluster']);
    expect(profile?.tags).toEqual({
      'kubernetes.io/cluster/my-cluster': 'owned',
      'karpenter.k8s.aws/ec2nodeclass': 'gpu',
      'topology.kubernetes.io/region': 'us-east-1',
    });
    expect((await cluster.get(EC2NodeClasses, { name: 'gpu' })).status?.instanceProfile).toBe(profileName);

    await pricesLoaded(nodePools.filter((p) => p.metadata.name === 'gpu'));
    const pool = nodePools.find((p) => p.metadata.name === 'gpu');
    if (pool === undefined) throw new Error('examples: no NodePool gpu');
    await provider.cloudProvider.create(aNodeClaimFor(pool, { metadata: { name: 'gpu-1' } }));
    const templatesOf = (nc: string) =>
      [...mock.ec2.launchTemplates.values()].filter(
        (t) => t.tags.get('karpenter.k8s.aws/ec2nodeclass') === nc,
      );
    expect(templatesOf('gpu').length).toBeGreaterThan(0);

    await cluster.delete(EC2NodeClasses, { name: 'gpu' });
    await reconcile('gpu');
    expect(mock.iam.instanceProfiles.has(profileName)).toBe(false);
    expect(templatesOf('gpu')).toEqual([]);
    await expect(cluster.get(EC2NodeClasses, { name: 'gpu' })).rejects.toMatchObject({ code: 404 });
  });

  it('reports a role IAM does not know in InstanceProfileReady', async () => {
    const { nodeClasses } = readExamples();
    mock.iam.roles.delete('KarpenterNodeRole-my-cluster');
    const nodeClass = nodeClasses.find((n) => n.metadata.name === 'default');
    if (nodeClass === undefined) throw new Error('examples: no EC2NodeClass default');
    await cluster.create(EC2NodeClasses, nodeClass);
    await reconcile('default');
    const resolved = await cluster.get(EC2NodeClasses, { name: 'default' });
    expect(resolved.status?.conditions?.find((c) => c.type === 'InstanceProfileReady')).toMatchObject({
      status: 'False',
      message: expect.stringMatching(
        /^adding role KarpenterNodeRole-my-cluster to instance profile my-cluster_\d+: role KarpenterNodeRole-my-cluster does not exist \(NoSuchEntity: The role with name KarpenterNodeRole-my-cluster cannot be found\.\)$/,
      ),
    });
    expect(resolved.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
  });
});
