import { awsClients, createAwsProvider, EC2NodeClasses, parseAwsSettings } from '@nodewright/aws';
import { KubeletHarness } from '@nodewright/conformance/harness';
import { type AwsMock, startAwsMock } from '@nodewright/conformance/mocks/aws';
import type { Node, NodeClaim, NodePool } from '@nodewright/core/apis';
import { type KubeObject, NodeClaims, NodePools, Nodes, type ResourceType } from '@nodewright/core/kube';
import { lifecycleControllers, lifecycleMetrics } from '@nodewright/core/lifecycle';
import type { ProviderInstance } from '@nodewright/core/operator';
import { ControllerEnv } from '@nodewright/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractClaims, contractNodePool, ownedBy } from './src/provider-contract/contract-claims.js';
import { mockAwsSettings, mockEC2NodeClass } from './src/providers/aws-harness.js';

// Issue 14 item 4, the fault test: EC2's DescribeInstances lags 30 s behind launches and the
// answers of the first CreateFleet calls are lost after the launch. Core's real lifecycle and
// garbage-collection controllers drive the real AWS provider (the SDK over HTTP) against the
// wire mock, on one fake clock the mock shares; the kubelet harness registers a Node for every
// running instance, as kubelets would. After three garbage-collection periods every NodeClaim
// has exactly one instance, no instance is without a claim, and no Node is without a claim.

const Claims = 3;
const DescribeLagMs = 30_000;
/** Core's default garbage-collection period (Karpenter's). */
const GcPeriodMs = 2 * 60_000;
const ClusterName = 'lost-launch';

let env: ControllerEnv | undefined;
let mock: AwsMock | undefined;
let provider: ProviderInstance | undefined;
let harness: KubeletHarness | undefined;

afterEach(async () => {
  harness?.stop();
  await provider?.close?.();
  await env?.manager.stop();
  await mock?.close();
});

/** The cloud, the cluster and the controllers, wired as the controller process wires them. */
async function start(): Promise<{
  env: ControllerEnv;
  mock: AwsMock;
  claims: ContractClaims;
  pool: NodePool;
}> {
  env = new ControllerEnv({
    start: Date.parse('2026-12-04T09:00:00Z'),
    kinds: [EC2NodeClasses as ResourceType],
  });
  mock = await startAwsMock({ cluster: ClusterName, clock: env.clock, timers: env.timers });
  const settings = parseAwsSettings(mockAwsSettings(mock));
  const clients = await awsClients(settings);
  provider = createAwsProvider(env.providerContext(ClusterName), settings, clients);
  await env.cluster.create(EC2NodeClasses, mockEC2NodeClass('default', ClusterName) as KubeObject as never);
  const nodePool = contractNodePool('default', {
    group: 'karpenter.k8s.aws',
    kind: 'EC2NodeClass',
    name: 'default',
  });
  const pool = await env.cluster.create(NodePools, nodePool);
  await env.start(
    ...provider.controllers,
    ...lifecycleControllers(
      {
        cluster: env.cluster,
        cloudProvider: provider.cloudProvider,
        clock: env.clock,
        events: env.events,
        metrics: lifecycleMetrics(env.registry),
      },
      { garbageCollection: { intervalMs: GcPeriodMs } },
    ),
  );
  harness = new KubeletHarness({
    cluster: env.cluster,
    source: mock.instances,
    timers: env.timers,
    bootDelayMs: 5_000,
  });
  await harness.start();
  return { env, mock, claims: new ContractClaims(pool), pool };
}

/** What the run left: instances per claim, orphans, claimless Nodes, claims lost. */
async function tally(env: ControllerEnv, mock: AwsMock, created: readonly string[]) {
  const live = [...mock.ec2.instances.values()].filter(
    (i) => i.state !== 'terminated' && i.state !== 'shutting-down',
  );
  const claims = (await env.cluster.list(NodeClaims)).items as NodeClaim[];
  const nodes = (await env.cluster.list(Nodes)).items as Node[];
  const byClaim = new Map<string, number>();
  for (const i of live) {
    const claim = i.tags.get('karpenter.sh/nodeclaim') ?? '';
    byClaim.set(claim, (byClaim.get(claim) ?? 0) + 1);
  }
  const claimIds = new Set(claims.map((c) => c.status?.providerID?.split('/').pop()));
  const claimProviderIDs = new Set(claims.map((c) => c.status?.providerID));
  return {
    launched: mock.ec2.instances.size,
    instancesPerClaim: created.map((name) => byClaim.get(name) ?? 0),
    orphanedInstances: live.filter((i) => !claimIds.has(i.id)).map((i) => i.id),
    claimlessNodes: nodes
      .filter((n) => !claimProviderIDs.has(n.spec?.providerID))
      .map((n) => n.metadata.name),
    claimsLost: created.filter((name) => !claims.some((c) => c.metadata.name === name)),
    createFleetCalls: mock.faults.calls('CreateFleet'),
  };
}

describe('aws: launches survive a lagging DescribeInstances and lost CreateFleet answers', () => {
  it('after 3 garbage-collection periods: one instance per claim, no orphaned instance, no claimless Node', async () => {
    const { env, mock, claims, pool } = await start();
    mock.faults.describeLag(DescribeLagMs);
    // The SDK tries each call 3 times (its retries reuse the token): losing 3 answers fails the
    // whole first create of a claim, so the lifecycle controller's own retry sends it again.
    mock.faults.loseResponses('CreateFleet', 3 * Claims);
    // The claims arrive 20 s before a garbage-collection pass: it runs while their instances are
    // launched (claims Launched for more than its 10 s grace) but not yet listed.
    await env.advance(GcPeriodMs - 20_000);
    const created: string[] = [];
    for (let i = 0; i < Claims; i++) {
      const claim = await env.cluster.create(NodeClaims, ownedBy(claims.claim(), pool));
      created.push(claim.metadata.name ?? '');
    }
    await env.settle();
    for (let elapsed = 0; elapsed < 3 * GcPeriodMs; elapsed += 10_000) await env.advance(10_000);
    const result = await tally(env, mock, created);
    console.log(
      `aws lost-launch fault: ${JSON.stringify({ describeLagMs: DescribeLagMs, lostCreateFleetAnswers: 3 * Claims, ...result })}`,
    );
    expect(result.instancesPerClaim).toEqual(created.map(() => 1));
    expect(result.launched, 'no second launch for any claim').toBe(Claims);
    expect(result.orphanedInstances).toEqual([]);
    expect(result.claimlessNodes).toEqual([]);
    expect(result.claimsLost).toEqual([]);
    expect(result.createFleetCalls, 'the lost answers were retried').toBeGreaterThan(3 * Claims);
    const nodes = (await env.cluster.list(Nodes)).items;
    expect(nodes).toHaveLength(Claims);
  }, 120_000);
});
