import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../apis/kubernetes/node.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { simNode, simPod } from '../test-fixtures.js';
import { FitIndex, nodeLocal } from './fit-index.js';
import { NodeChanges } from './node-changes.js';
import { NodeInfo } from './node-info.js';
import { type PodInfo, podInfoOf } from './pod-info.js';
import { schedulePod } from './schedule-pod.js';

/** The binder's NodeInfos and change log, changed only through what records the change. */
class Fleet {
  readonly infos = new Map<string, NodeInfo>();
  readonly changes: NodeChanges;

  constructor(logPerNode = true) {
    // A log that keeps nothing makes every lookup a full rescan: both paths must agree.
    this.changes = new NodeChanges(() => (logPerNode ? this.infos.size : -1024));
  }

  setNode(name: string, node: Node | undefined): void {
    let info = this.infos.get(name);
    if (info === undefined) {
      info = new NodeInfo(name);
      this.infos.set(name, info);
    }
    info.setNode(node);
    this.changes.record(info);
  }

  bind(name: string, pod: PodInfo): void {
    const info = this.infos.get(name)!;
    info.add(pod);
    this.changes.record(info);
  }

  unbind(name: string, key: string): void {
    const info = this.infos.get(name)!;
    info.remove(key);
    this.changes.record(info);
  }

  /** What schedulePod sees: the nodes that exist, by name. */
  snapshot() {
    const nodes = [...this.infos.values()]
      .filter((n) => n.node !== undefined)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { nodes, withAntiAffinity: [], namespaceLabels: () => undefined };
  }
}

function answer(result: ReturnType<typeof schedulePod> | ReturnType<FitIndex['schedule']>) {
  return result.scheduled ? { node: result.node.name, score: result.score } : { message: result.message };
}

const names = ['a', 'b', 'c', 'd', 'e', 'f'];
const cpus = ['1', '2', '4', '8'];
const zones = ['z1', 'z2'];

const rarely = fc.constantFrom(false, false, false, true);

const nodeSpec = fc.record({
  cpu: fc.constantFrom(...cpus),
  memory: fc.constantFrom('2Gi', '8Gi', '16Gi'),
  pods: fc.constantFrom('3', '110'),
  zone: fc.constantFrom(...zones),
  // Mostly schedulable nodes, so that feasible ones (and ties among them) are common.
  tainted: rarely,
  ready: fc.constantFrom(true, true, true, false),
  unschedulable: rarely,
});

type NodeSpec = typeof nodeSpec extends fc.Arbitrary<infer T> ? T : never;
type PodSpec = typeof podSpec extends fc.Arbitrary<infer T> ? T : never;

function nodeOf(name: string, s: NodeSpec): Node {
  return simNode(name, {
    cpu: s.cpu,
    memory: s.memory,
    pods: s.pods,
    labels: { zone: s.zone },
    ...(s.tainted ? { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const }] } : {}),
    ready: s.ready,
    unschedulable: s.unschedulable,
  });
}

const podSpec = fc.record({
  cpu: fc.constantFrom('100m', '500m', '1', '1500m', '3'),
  memory: fc.constantFrom('', '256Mi', '4Gi'),
  zone: fc.option(fc.constantFrom(...zones), { nil: undefined }),
  tolerates: fc.boolean(),
  hostPort: fc.option(fc.constantFrom(8080, 9090), { nil: undefined }),
});

function podOf(name: string, s: PodSpec, nodeName?: string): Pod {
  return simPod(name, {
    cpu: s.cpu,
    ...(s.memory !== '' ? { memory: s.memory } : {}),
    ...(s.zone !== undefined ? { nodeSelector: { zone: s.zone } } : {}),
    ...(s.tolerates ? { tolerations: [{ key: 'dedicated', operator: 'Exists' as const }] } : {}),
    ...(s.hostPort !== undefined ? { hostPort: s.hostPort } : {}),
    ...(nodeName !== undefined ? { nodeName } : {}),
  });
}

const step = fc.oneof(
  fc.record({ op: fc.constant('node' as const), name: fc.constantFrom(...names), spec: nodeSpec }),
  fc.record({ op: fc.constant('gone' as const), name: fc.constantFrom(...names) }),
  fc.record({ op: fc.constant('bind' as const), name: fc.constantFrom(...names), spec: podSpec }),
  fc.record({ op: fc.constant('unbind' as const), name: fc.constantFrom(...names) }),
);

describe('FitIndex', () => {
  it('answers as schedulePod does after any sequence of node and pod changes', () => {
    fc.assert(
      fc.property(
        fc.array(podSpec, { minLength: 1, maxLength: 3 }),
        fc.array(step, { maxLength: 40 }),
        fc.boolean(),
        (signatures, steps, logPerNode) => {
          const fleet = new Fleet(logPerNode);
          const pending = signatures.map((s, i) => podInfoOf(podOf(`pending-${i}`, s)));
          const indexes = pending.map((p) => new FitIndex(p));
          let bound = 0;
          const check = () => {
            pending.forEach((pod, i) => {
              const fresh = schedulePod(pod, fleet.snapshot());
              const indexed = indexes[i]!.schedule(fleet.changes, fleet.infos.values());
              expect(answer(indexed)).toEqual(answer(fresh));
            });
          };
          check();
          for (const s of steps) {
            const info = fleet.infos.get(s.name);
            if (s.op === 'node') fleet.setNode(s.name, nodeOf(s.name, s.spec));
            else if (s.op === 'gone') {
              if (info !== undefined) fleet.setNode(s.name, undefined);
            } else if (s.op === 'bind') {
              if (info?.node !== undefined)
                fleet.bind(s.name, podInfoOf(podOf(`bound-${bound++}`, s.spec, s.name)));
            } else {
              const key = info?.pods.keys().next().value;
              if (key !== undefined) fleet.unbind(s.name, key);
            }
            // Not every index is asked after every change: they catch up over several.
            if (s.name !== 'f') check();
          }
          check();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('picks the highest score, then the first node by name, and counts reasons per node', () => {
    const fleet = new Fleet();
    fleet.setNode('b', simNode('b', { cpu: '4' }));
    fleet.setNode('a', simNode('a', { cpu: '4' }));
    fleet.setNode('c', simNode('c', { cpu: '8' }));
    const pod = podInfoOf(simPod('p', { cpu: '3' }));
    const index = new FitIndex(pod);
    const first = index.schedule(fleet.changes, fleet.infos.values());
    expect(answer(first)).toMatchObject({ node: 'c' });
    fleet.bind('c', podInfoOf(simPod('x', { cpu: '6', nodeName: 'c' })));
    // a and b score alike: the first by name wins.
    expect(answer(index.schedule(fleet.changes, fleet.infos.values()))).toMatchObject({ node: 'a' });
    fleet.bind('a', podInfoOf(simPod('y', { cpu: '2', nodeName: 'a' })));
    fleet.bind('b', podInfoOf(simPod('z', { cpu: '2', nodeName: 'b' })));
    expect(answer(index.schedule(fleet.changes, fleet.infos.values()))).toEqual({
      message: '0/3 nodes are available: 3 Insufficient cpu.',
    });
    fleet.setNode('b', undefined);
    expect(answer(index.schedule(fleet.changes, fleet.infos.values()))).toEqual({
      message: '0/2 nodes are available: 2 Insufficient cpu.',
    });
  });

  it('holds only pods whose verdict on a node depends on that node alone', () => {
    expect(nodeLocal(podInfoOf(simPod('p', { cpu: '1', nodeSelector: { zone: 'z1' } })))).toBe(true);
    const spread = simPod('s', {
      spec: {
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} },
        ],
      },
    });
    expect(nodeLocal(podInfoOf(spread))).toBe(false);
    const anyway = simPod('s', {
      spec: {
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: {} },
        ],
      },
    });
    expect(nodeLocal(podInfoOf(anyway))).toBe(true);
    const anti = simPod('a', {
      spec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'a' } } },
            ],
          },
        },
      },
    });
    expect(nodeLocal(podInfoOf(anti))).toBe(false);
  });
});
