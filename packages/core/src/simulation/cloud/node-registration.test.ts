import { describe, expect, it } from 'vitest';
import { Labels } from '../../apis/labels.js';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import type { UntypedObject } from '../../kube/object.js';
import { Nodes } from '../../kube/resource-types.js';
import { SeededRandom } from '../random/random.js';
import { SimulationErrors, settleSimulation } from '../settle/settle.js';
import { KubeletNodeRegistrar } from './node-registration.js';
import { SimulatedCloudProvider } from './simulated-cloud-provider.js';
import { testInstanceType, testNodeClaim } from './test-fixtures.js';

const START = Date.parse('2026-03-01T00:00:00Z');

function setup(launchLatency = 0) {
  const clock = new FakeClock(START);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock });
  const errors = new SimulationErrors();
  const random = new SeededRandom(1);
  const registration = new KubeletNodeRegistrar({
    cluster,
    clock,
    timers,
    random: random.fork('kubelet'),
    bootDelay: 45_000,
    startupTaintRemovalDelay: 5_000,
    onError: errors.report,
  });
  const provider = new SimulatedCloudProvider({
    clock,
    timers,
    random,
    registration,
    launchLatency,
    catalog: [testInstanceType('small', { cpu: '2', memory: '4Gi' }, { 'on-demand:zone-a': 0.1 })],
    onError: errors.report,
  });
  const settle = () => settleSimulation(cluster, errors);
  return { clock, timers, cluster, provider, settle };
}

async function nodes(cluster: MemoryCluster): Promise<UntypedObject[]> {
  return (await cluster.list<UntypedObject>(Nodes)).items;
}

describe('KubeletNodeRegistrar', () => {
  it('registers a Ready Node after the boot delay and drops startup taints later', async () => {
    const { timers, cluster, provider, settle } = setup();
    const claim = await provider.create(
      testNodeClaim(
        'a',
        {},
        {
          taints: [{ key: 'team', value: 'x', effect: 'NoSchedule' }],
          startupTaints: [{ key: 'cni-not-ready', effect: 'NoExecute' }],
        },
      ),
    );
    await timers.advance(44_999, settle);
    expect(await nodes(cluster)).toEqual([]);
    await timers.advance(1, settle);
    const [node] = await nodes(cluster);
    expect(node?.metadata.name).toBe('a');
    expect(node?.metadata.labels).toMatchObject({
      [Labels.Hostname]: 'a',
      [Labels.InstanceType]: 'small',
      [Labels.Zone]: 'zone-a',
      [Labels.CapacityType]: 'on-demand',
      [Labels.NodePool]: 'default',
    });
    expect(node?.spec).toEqual({
      providerID: claim.status?.providerID,
      taints: [
        { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
        { key: 'team', value: 'x', effect: 'NoSchedule' },
        { key: 'cni-not-ready', effect: 'NoExecute' },
      ],
    });
    expect(node?.status).toMatchObject({
      allocatable: { cpu: '2', memory: '4Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    });
    await timers.advance(5_000, settle);
    const [later] = await nodes(cluster);
    expect((later!.spec as { taints: unknown[] }).taints).toEqual([
      { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
      { key: 'team', value: 'x', effect: 'NoSchedule' },
    ]);
  });

  it('starts booting only once the instance is running (launch latency + boot delay)', async () => {
    const { timers, cluster, provider, settle } = setup(7_000);
    await provider.create(testNodeClaim('a'));
    await timers.advance(7_000 + 44_999, settle);
    expect(await nodes(cluster)).toEqual([]);
    await timers.advance(1, settle);
    expect((await nodes(cluster)).map((n) => n.metadata.name)).toEqual(['a']);
  });

  it('never registers a Node for an instance terminated while pending', async () => {
    const { timers, cluster, provider, settle } = setup(7_000);
    const a = await provider.create(testNodeClaim('a'));
    await timers.advance(3_000, settle);
    await provider.delete(a);
    await timers.advance(60_000, settle);
    expect(await nodes(cluster)).toEqual([]);
    expect(provider.instances()[0]?.state).toBe('terminated');
    expect(provider.instances()[0]?.runningAt).toBeUndefined();
  });

  it('deletes the Node when the instance terminates, and never registers one terminated while booting', async () => {
    const { timers, cluster, provider, settle } = setup();
    const a = await provider.create(testNodeClaim('a'));
    const b = await provider.create(testNodeClaim('b'));
    await timers.advance(10_000, settle);
    await provider.delete(b);
    await timers.advance(40_000, settle);
    expect((await nodes(cluster)).map((n) => n.metadata.name)).toEqual(['a']);
    await provider.delete(a);
    await settle();
    expect(await nodes(cluster)).toEqual([]);
  });
});
