import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { Events, Nodes, Pods } from '../../kube/resource-types.js';
import { fakeInstanceTypes } from '../../testing/fake-instance-types.js';
import { simNode, simPod } from '../kube/test-fixtures.js';
import { parseScenario } from '../scenario/parse-scenario.js';
import { addCounts } from './counts.js';
import { runSimulation, scenarioEnvironment } from './run-simulation.js';

const text = `name: short
duration: 3h
seed: 4
catalog: fake
nodePools:
  - apiVersion: karpenter.sh/v1
    kind: NodePool
    metadata: { name: default }
    spec:
      template:
        spec:
          nodeClassRef: { group: sim.nodewright.dev, kind: SimulatedNodeClass, name: default }
          requirements:
            - { key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }
      disruption:
        consolidationPolicy: WhenEmptyOrUnderutilized
        consolidateAfter: 1m
cloud:
  launchLatency: 2s
  registrationDelay: 20s
workloads:
  deployments:
    - name: web
      replicas: [{ at: 0, replicas: 4 }, { at: 30m, replicas: 40 }, { at: 1h30m, replicas: 3 }]
      pod: { requests: { cpu: 500m, memory: 512Mi } }
  jobs:
    - { name: batch, count: 6, arriveAt: 10m, runFor: 10m, pod: { requests: { cpu: "1", memory: 1Gi } } }
`;

function scenario() {
  const parsed = parseScenario(text, 'short.yaml');
  if (parsed.scenario === undefined) throw new Error(JSON.stringify(parsed.errors));
  return parsed.scenario;
}

describe('runSimulation', () => {
  it('provisions for the scale-up, consolidates after the scale-down, and bills the fleet', async () => {
    const { summary, series } = await runSimulation({
      scenario: scenario(),
      instanceTypes: fakeInstanceTypes(),
    });
    expect(summary.pods.pendingAtEnd).toBe(0);
    expect(summary.pods.scheduled).toBe(summary.pods.created);
    expect(summary.nodes.launched).toBeGreaterThan(0);
    expect(summary.nodes.terminated).toBeGreaterThan(0);
    const atPeak = Math.max(...series.filter((s) => s.hour < 1.5).map((s) => s.nodes));
    expect(summary.nodes.atEnd).toBeLessThan(atPeak);
    expect(summary.cost.total).toBeGreaterThan(0);
    expect(summary.utilisation.cpu).toBeGreaterThan(0);
    expect(summary.utilisation.cpu).toBeLessThanOrEqual(1);
    expect(Object.keys(summary.decisions).length).toBeGreaterThan(0);
    expect(summary.disruptions.empty ?? 0).toBeGreaterThan(0);
    expect(summary.nodes.peak).toBeGreaterThanOrEqual(atPeak);
    expect(series.length).toBe(181);
    // The series records each disruption in the sample after it; together they are the summary.
    expect(addCounts(series.map((s) => s.disruptions))).toEqual(summary.disruptions);
    const firstEmpty = series.find((s) => (s.disruptions.empty ?? 0) > 0)!;
    // The first empty node is one the jobs (10 min from 10 min on) leave behind.
    expect(firstEmpty.hour).toBeGreaterThan(1 / 3);
  }, 60_000);

  it("runs the simulated kube-scheduler with the scenario's backoff: pods wait it out after failing", async () => {
    const plain = scenario();
    const hour = 3_600_000;
    const short = { ...plain, duration: hour };
    const without = await runSimulation({ scenario: short, instanceTypes: fakeInstanceTypes() });
    const backoff = { initial: 1_000, max: 10_000 };
    const withBackoff = await runSimulation({
      scenario: { ...short, scheduler: { backoff } },
      instanceTypes: fakeInstanceTypes(),
    });
    // Pods fail while their node boots (20 s), so they are backing off when it registers.
    expect(withBackoff.summary.pods.scheduled).toBe(without.summary.pods.scheduled);
    expect(withBackoff.summary.pods.pendingSeconds.max).toBeGreaterThan(
      without.summary.pods.pendingSeconds.max,
    );
    expect(withBackoff.summary.pods.pendingSeconds.max).toBeLessThanOrEqual(
      without.summary.pods.pendingSeconds.max + backoff.max / 1000,
    );
  }, 60_000);

  it('gives the same result for the same seed', async () => {
    const a = await runSimulation({ scenario: scenario(), instanceTypes: fakeInstanceTypes() });
    const b = await runSimulation({ scenario: scenario(), instanceTypes: fakeInstanceTypes() });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  }, 60_000);

  it("binds and refuses pods in a scenario's cluster without writing the scheduler's Events", async () => {
    const env = scenarioEnvironment(scenario(), fakeInstanceTypes());
    await env.cluster.create(Nodes, simNode('small', { cpu: '1' }));
    await env.cluster.create(Pods, simPod('fits', { cpu: '500m' }));
    await env.cluster.create(Pods, simPod('too-big', { cpu: '2' }));
    await env.settle();
    const pods = await env.cluster.list<Pod>(Pods);
    const byName = new Map(pods.items.map((p) => [p.metadata.name, p]));
    expect(byName.get('fits')?.spec.nodeName).toBe('small');
    expect(byName.get('too-big')?.status?.conditions).toContainEqual(
      expect.objectContaining({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }),
    );
    expect((await env.cluster.list(Events)).items).toEqual([]);
    env.stop();
  });
});
