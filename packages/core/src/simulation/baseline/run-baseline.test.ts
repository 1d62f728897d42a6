import { describe, expect, it } from 'vitest';
import { fakeInstanceTypes } from '../../testing/fake-instance-types.js';
import { addCounts } from '../runner/counts.js';
import { parseScenario } from '../scenario/parse-scenario.js';
import { baselineDisruptions, compareSummaries, runClusterAutoscalerBaseline } from './run-baseline.js';

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
      pdb: { maxUnavailable: 1 }
`;

function scenario(yaml = text) {
  const parsed = parseScenario(yaml, 'short.yaml');
  if (parsed.scenario === undefined) throw new Error(JSON.stringify(parsed.errors));
  return parsed.scenario;
}

describe('runClusterAutoscalerBaseline', () => {
  it('scales a fixed node group up for pending pods and down after the unneeded time', async () => {
    const { summary, series, nodeGroups } = await runClusterAutoscalerBaseline({
      scenario: scenario(),
      instanceTypes: fakeInstanceTypes(),
    });
    expect(nodeGroups).toHaveLength(1);
    expect(summary.pods.pendingAtEnd).toBe(0);
    expect(summary.pods.scheduled).toBe(summary.pods.created);
    const peak = Math.max(...series.filter((s) => s.hour < 1.5).map((s) => s.nodes));
    expect(peak).toBeGreaterThan(1);
    expect(summary.nodes.atEnd).toBeLessThan(peak);
    expect(summary.events['scale-up']).toBeGreaterThan(0);
    expect(summary.events['scale-down']).toBeGreaterThan(0);
    // No scale-down within 10 min of the scale-up at 30 min, nor before 10 min unneeded.
    const at = (h: number) => series.find((s) => s.hour >= h)!.nodes;
    expect(at(1.6)).toBe(at(1.5 + 1 / 60));
    // Launch 2 s + boot 20 s + kubelet: new pods wait at least the launch and boot.
    expect(summary.pods.pendingSeconds.max).toBeGreaterThanOrEqual(22);
    // Scale-downs count as disruptions by reason (CA's own), beside nodewright's.
    const removed = (summary.disruptions.empty ?? 0) + (summary.disruptions.underutilized ?? 0);
    expect(removed).toBe(summary.events['scale-down']);
    // The scale-down to 3 replicas leaves whole nodes empty.
    expect(summary.disruptions.empty).toBeGreaterThan(0);
    const begun = (summary.decisions['delete/empty'] ?? 0) + (summary.decisions['delete/underutilized'] ?? 0);
    expect(begun).toBe(removed + (summary.events['scale-down-eviction-refused'] ?? 0));
    expect(addCounts(series.map((s) => s.disruptions))).toEqual(summary.disruptions);
    expect(series.filter((s) => s.hour < 1.6).every((s) => Object.keys(s.disruptions).length === 0)).toBe(
      true,
    );
  }, 60_000);

  it("keeps CA's scan-interval (10 s), scale-down-unneeded-time and delay-after-add (10 min) on a run", async () => {
    const emptied = text
      .replace('duration: 3h', 'duration: 1h')
      .replace(
        '[{ at: 0, replicas: 4 }, { at: 30m, replicas: 40 }, { at: 1h30m, replicas: 3 }]',
        '[{ at: 0, replicas: 2 }, { at: 5m, replicas: 0 }]',
      );
    let scans = 0;
    const { series, summary } = await runClusterAutoscalerBaseline({
      scenario: scenario(emptied),
      instanceTypes: fakeInstanceTypes(),
      onWork: (w) => {
        scans = w.reconciles;
      },
    });
    // One scan every 10 s of the hour.
    expect(scans).toBe(360);
    // Scaled up at the first scan (10 s), emptied at 5 min: the node goes once it has been
    // unneeded for 10 min and 10 min have passed since the scale-up — at 15 min, not before.
    const nodesAt = (minute: number) => series.find((s) => s.hour >= minute / 60)!.nodes;
    expect(nodesAt(1)).toBe(1);
    expect(nodesAt(14)).toBe(1);
    expect(nodesAt(17)).toBe(0);
    expect(summary.disruptions.empty).toBe(1);
  }, 60_000);

  it('runs a scenario that edits a NodePool: Cluster Autoscaler has none, so the edit is not played', async () => {
    const withEdit = `${text}events:
  - at: 1h
    nodePoolPatch:
      name: default
      patch: { spec: { template: { metadata: { labels: { rollout: "2" } } } } }
`;
    const { summary } = await runClusterAutoscalerBaseline({
      scenario: scenario(withEdit),
      instanceTypes: fakeInstanceTypes(),
    });
    expect(summary.pods.scheduled).toBe(summary.pods.created);
    expect(summary.disruptions.drifted).toBeUndefined();
  }, 60_000);

  it('counts a node drained of pods that fit elsewhere as underutilized', async () => {
    // Starting from 2 replicas, the 3 left after the scale-down are the 2 on the first node and
    // one on another node that is under CA's threshold and whose pod fits on the first.
    const spread = text.replace('{ at: 0, replicas: 4 }', '{ at: 0, replicas: 2 }');
    const { summary } = await runClusterAutoscalerBaseline({
      scenario: scenario(spread),
      instanceTypes: fakeInstanceTypes(),
    });
    expect(summary.disruptions.underutilized).toBeGreaterThan(0);
    expect(summary.decisions['delete/underutilized']).toBeGreaterThanOrEqual(
      summary.disruptions.underutilized!,
    );
    expect(summary.pods.pendingAtEnd).toBe(0);
  }, 60_000);

  it("counts the cloud's interruption notices up to now as the interruption reason", () => {
    const instance = (noticeAt?: number) =>
      (noticeAt === undefined
        ? {}
        : { interruption: { kind: 'SpotInterruption', noticeAt, deadline: noticeAt + 120_000 } }) as never;
    const scaleDowns = new Map([['underutilized', 2]]);
    expect(baselineDisruptions(scaleDowns, [instance(), instance(10), instance(50)], 20)).toEqual(
      new Map([
        ['underutilized', 2],
        ['interruption', 1],
      ]),
    );
    expect(baselineDisruptions(new Map(), [instance()], 20)).toEqual(new Map());
    expect(scaleDowns).toEqual(new Map([['underutilized', 2]]));
  });

  it('compares cost, utilisation and pending time', () => {
    const base = {
      cost: { total: 10 },
      utilisation: { cpu: 0.5, memory: 0.4 },
      pods: { pendingSeconds: { p50: 30, p90: 60 } },
    };
    const nw = {
      cost: { total: 8 },
      utilisation: { cpu: 0.7, memory: 0.5 },
      pods: { pendingSeconds: { p50: 25, p90: 70 } },
    };
    expect(compareSummaries(nw as never, base as never)).toEqual({
      costDeltaPercent: -20,
      utilisationDelta: { cpu: 0.2, memory: 0.1 },
      pendingSecondsDelta: { p50: -5, p90: 10 },
    });
  });
});
