import { describe, expect, it } from 'vitest';
import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { ResourceType } from '../../kube/resource-type.js';
import { Deployments, Nodes, PodDisruptionBudgets, Pods as TypedPods } from '../../kube/resource-types.js';
import { testInstanceType, testNodeClaim } from '../cloud/test-fixtures.js';
import { SimulationEnvironment } from './simulation-environment.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Pods: ResourceType = TypedPods;

const START = Date.parse('2026-01-01T00:00:00Z');

function web(replicas: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'app', resources: { requests: { cpu: '500m', memory: '256Mi' } } }] },
      },
    },
  };
}

async function webPods(env: SimulationEnvironment): Promise<Pod[]> {
  return (await env.cluster.list<Pod>(Pods)).items.filter((p) => p.metadata.name?.startsWith('web-'));
}

function scheduledMessage(pod: Pod | undefined): string | undefined {
  return pod?.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False')?.message;
}

describe('SimulationEnvironment', () => {
  it('wires cloud, kubelets, scheduler and workloads: launch, register, bind, interrupt, replace', async () => {
    const env = new SimulationEnvironment({
      seed: 7,
      catalog: [
        testInstanceType(
          'small',
          { cpu: '2', memory: '4Gi' },
          { 'spot:zone-a': 0.03, 'on-demand:zone-a': 0.1 },
        ),
      ],
      registration: { bootDelay: 30_000 },
      kubelet: { startDelay: 1_000 },
    });
    await env.cluster.create(Deployments, web(2));
    await env.settle();
    const pending = await webPods(env);
    expect(pending.map(scheduledMessage)).toEqual([
      'no nodes available to schedule pods',
      'no nodes available to schedule pods',
    ]);

    const claim = await env.provider.create(testNodeClaim('default-abc', { types: ['small'] }));
    const providerID = claim.status?.providerID ?? '';
    expect(providerID).toBe('sim://zone-a/i-00000000000000001');
    await env.advance(30_000);
    const [node] = (await env.cluster.list<Node>(Nodes)).items;
    expect(node?.spec.providerID).toBe(providerID);
    expect(scheduledMessage((await webPods(env))[0])).toBe(
      '0/1 nodes are available: 1 node(s) had untolerated taint {karpenter.sh/unregistered: }.',
    );
    // What Karpenter's registration controller does once it matches the Node to the claim.
    await env.cluster.patch(Nodes, { name: 'default-abc' }, { spec: { taints: null } });
    await env.settle();
    await env.advance(1_000);
    expect((await webPods(env)).map((p) => [p.spec.nodeName, p.status?.phase])).toEqual([
      ['default-abc', 'Running'],
      ['default-abc', 'Running'],
    ]);

    const notice = env.provider.interrupt(providerID);
    expect(notice?.deadline).toBe(START + 31_000 + 120_000);
    await env.advance(119_999);
    expect((await env.cluster.list(Nodes)).items).toHaveLength(1);
    await env.advance(1);
    expect((await env.cluster.list(Nodes)).items).toEqual([]);
    const replaced = await webPods(env);
    expect(replaced).toHaveLength(2);
    expect(replaced.every((p) => p.spec.nodeName === undefined)).toBe(true);
    expect(replaced.map((p) => p.metadata.uid)).not.toContain(pending[0]?.metadata.uid);
    // Billed from launch to the interruption deadline.
    expect(env.provider.costBetween(START, env.clock.now())).toBeCloseTo((0.03 * 151_000) / 3_600_000, 15);
  });
});

describe('SimulationEnvironment disruption controller', () => {
  it('keeps PDB status current once a PDB exists', async () => {
    const env = new SimulationEnvironment({
      catalog: [testInstanceType('small', { cpu: '2', memory: '4Gi' }, { 'on-demand:zone-a': 0.1 })],
    });
    await env.cluster.create(Deployments, web(2));
    await env.settle();
    await env.cluster.create(PodDisruptionBudgets, {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    });
    await env.settle();
    const pdb = await env.cluster.get(PodDisruptionBudgets, { name: 'web', namespace: 'default' });
    // Two pods, neither running (no nodes): none healthy, so no disruption is allowed.
    expect(pdb.status).toMatchObject({ expectedPods: 2, disruptionsAllowed: 0 });
  });
});
