import { describe, expect, it } from 'vitest';
import type { Node } from '../../../apis/kubernetes/node.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { simNode, simPod } from '../test-fixtures.js';
import type { PlacedPod } from './inter-pod-affinity.js';
import { NodeInfo } from './node-info.js';
import { podInfoOf } from './pod-info.js';
import { fitErrorMessage, type ScheduleResult, schedulePod } from './schedule-pod.js';

/** A snapshot of nodes with pods already bound to them. */
function cluster(nodes: Node[], bound: Pod[] = []) {
  // Sorted by name, as the binder hands them over.
  const infos = [...nodes]
    .sort((x, y) => (x.metadata.name < y.metadata.name ? -1 : 1))
    .map((n) => {
      const info = new NodeInfo(n.metadata.name);
      info.setNode(n);
      return info;
    });
  const placed: PlacedPod[] = [];
  for (const pod of bound) {
    const node = infos.find((i) => i.name === pod.spec.nodeName)!;
    const info = podInfoOf(pod);
    node.add(info);
    if (info.requiredAntiAffinity.length > 0) placed.push({ info, node });
  }
  return { nodes: infos, withAntiAffinity: placed, namespaceLabels: () => undefined };
}

function nodeOf(result: ScheduleResult): string {
  if (!result.scheduled) throw new Error(result.message);
  return result.node.name;
}

function reasonsOf(result: ScheduleResult): Record<string, readonly string[]> {
  if (result.scheduled) throw new Error(`scheduled on ${result.node.name}`);
  return Object.fromEntries(result.reasons);
}

describe('schedulePod filters', () => {
  it('reports every resource shortfall and too many pods', () => {
    const snapshot = cluster(
      [simNode('a', { cpu: '1', memory: '1Gi', pods: '1' }), simNode('b', { cpu: '4', memory: '8Gi' })],
      [
        simPod('x', { cpu: '100m', nodeName: 'a' }),
        simPod('y', { cpu: '3500m', memory: '7Gi', nodeName: 'b' }),
      ],
    );
    const result = schedulePod(podInfoOf(simPod('p', { cpu: '1', memory: '2Gi' })), snapshot);
    expect(reasonsOf(result)).toEqual({
      a: ['Too many pods', 'Insufficient cpu', 'Insufficient memory'],
      b: ['Insufficient cpu', 'Insufficient memory'],
    });
    expect(result.scheduled ? '' : result.message).toBe(
      '0/2 nodes are available: 1 Too many pods, 2 Insufficient cpu, 2 Insufficient memory.',
    );
  });

  it('counts init containers and overhead in requests', () => {
    const snapshot = cluster([simNode('a', { cpu: '2' })]);
    const pod = simPod('p', {
      cpu: '500m',
      spec: {
        initContainers: [{ name: 'init', resources: { requests: { cpu: '2' } } }],
        overhead: { cpu: '100m' },
      },
    });
    expect(reasonsOf(schedulePod(podInfoOf(pod), snapshot))).toEqual({ a: ['Insufficient cpu'] });
  });

  it('filters taints, not-ready and cordoned nodes unless tolerated', () => {
    const snapshot = cluster([
      simNode('tainted', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      simNode('soft', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }], cpu: '1' }),
      simNode('down', { ready: false }),
      simNode('cordoned', { unschedulable: true }),
    ]);
    const plain = schedulePod(podInfoOf(simPod('p', { cpu: '2' })), snapshot);
    expect(reasonsOf(plain)).toEqual({
      tainted: ['node(s) had untolerated taint {dedicated: gpu}'],
      soft: ['Insufficient cpu'],
      down: ['node(s) had untolerated taint {node.kubernetes.io/not-ready: }'],
      cordoned: ['node(s) were unschedulable'],
    });
    const tolerant = simPod('q', {
      cpu: '2',
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
    });
    expect(nodeOf(schedulePod(podInfoOf(tolerant), snapshot))).toBe('tainted');
    const anything = simPod('r', { cpu: '2', tolerations: [{ operator: 'Exists' }] });
    // Tolerating everything admits every node; the emptiest (cordoned, down, tainted all 4 cpu) wins by name.
    expect(nodeOf(schedulePod(podInfoOf(anything), snapshot))).toBe('cordoned');
  });

  it('matches nodeSelector and required node affinity terms (ORed), including matchFields', () => {
    const snapshot = cluster([
      simNode('a', { labels: { zone: 'z1', tier: 'web' } }),
      simNode('b', { labels: { zone: 'z2' } }),
      simNode('c', { labels: { zone: 'z3', size: '8' } }),
    ]);
    const selector = simPod('p', { nodeSelector: { zone: 'z2' } });
    expect(nodeOf(schedulePod(podInfoOf(selector), snapshot))).toBe('b');
    const affinity = (terms: NonNullable<Pod['spec']['affinity']>) =>
      simPod('q', { spec: { affinity: terms } });
    const notZ1OrBig = affinity({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'size', operator: 'Gt', values: ['4'] }] },
            { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] },
          ],
        },
      },
    });
    const result = schedulePod(podInfoOf(notZ1OrBig), snapshot);
    expect(result.scheduled && result.node.name).toBe('a');
    const none = affinity({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, {}],
        },
      },
    });
    expect(nodeOf(schedulePod(podInfoOf(none), snapshot))).toBe('b');
    const impossible = affinity({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z9'] }] }],
        },
      },
    });
    expect(schedulePod(podInfoOf(impossible), snapshot)).toMatchObject({
      scheduled: false,
      message: "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
    });
  });

  it('refuses a host port another pod holds on the node', () => {
    const snapshot = cluster(
      [simNode('a'), simNode('b', { cpu: '1' })],
      [simPod('x', { hostPort: 8080, nodeName: 'a' })],
    );
    const result = schedulePod(podInfoOf(simPod('p', { hostPort: 8080 })), snapshot);
    expect(nodeOf(result)).toBe('b');
    expect(reasonsOf(schedulePod(podInfoOf(simPod('p', { hostPort: 8080, cpu: '2' })), snapshot))).toEqual({
      a: ["node(s) didn't have free ports for the requested pod ports"],
      b: ['Insufficient cpu'],
    });
  });

  it('keeps DoNotSchedule topology spread within maxSkew, honouring node affinity', () => {
    const zoned = (name: string, zone: string) => simNode(name, { labels: { zone } });
    const spread = (name: string, extra: Partial<Pod['spec']> = {}) =>
      simPod(name, {
        labels: { app: 'web' },
        spec: {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'zone',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'web' } },
            },
          ],
          ...extra,
        },
      });
    const bound = [
      { ...spread('w1'), spec: { ...spread('w1').spec, nodeName: 'a' } },
      { ...spread('w2'), spec: { ...spread('w2').spec, nodeName: 'b' } },
    ];
    const snapshot = cluster(
      [zoned('a', 'z1'), zoned('b', 'z2'), zoned('c', 'z3'), simNode('nozone')],
      bound,
    );
    const result = schedulePod(podInfoOf(spread('p')), snapshot);
    expect(nodeOf(result)).toBe('c');
    // Only a counts under nodeSelector zone=z1: its own minimum, so skew stays 1.
    const restricted = spread('q', {
      nodeSelector: { zone: 'z1' },
    });
    expect(nodeOf(schedulePod(podInfoOf(restricted), snapshot))).toBe('a');
    // Counting a (one pod) and c (none): a would reach skew 2, so c.
    const forcedA = spread('r', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1', 'z3'] }] },
            ],
          },
        },
      },
    });
    expect(nodeOf(schedulePod(podInfoOf(forcedA), snapshot))).toBe('c');
    const missing = schedulePod(
      podInfoOf(spread('t', { nodeSelector: { 'kubernetes.io/hostname': 'nozone' } })),
      snapshot,
    );
    expect(reasonsOf(missing).nozone).toEqual([
      "node(s) didn't match pod topology spread constraints (missing required label)",
    ]);
  });

  it('fails spread when one domain is already ahead by maxSkew', () => {
    const spreadSpec = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'zone',
          whenUnsatisfiable: 'DoNotSchedule' as const,
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    };
    const bound = [simPod('w1', { labels: { app: 'web' }, nodeName: 'a' })];
    const snapshot = cluster(
      [simNode('a', { labels: { zone: 'z1' } }), simNode('b', { labels: { zone: 'z2' }, cpu: '1' })],
      bound,
    );
    const pod = simPod('p', { labels: { app: 'web' }, cpu: '2', spec: spreadSpec });
    expect(reasonsOf(schedulePod(podInfoOf(pod), snapshot))).toEqual({
      a: ["node(s) didn't match pod topology spread constraints"],
      b: ['Insufficient cpu'],
    });
  });

  it('enforces required pod anti-affinity both ways, and pod affinity with the first-pod exception', () => {
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'db' } } },
        ],
      },
    };
    const db1 = simPod('db1', { labels: { app: 'db' }, nodeName: 'a', spec: { affinity: anti } });
    const snapshot = cluster([simNode('a'), simNode('b')], [db1]);
    const db2 = simPod('db2', { labels: { app: 'db' }, spec: { affinity: anti } });
    expect(nodeOf(schedulePod(podInfoOf(db2), snapshot))).toBe('b');
    // A plain pod labelled app=db is kept off node a by db1's own anti-affinity.
    const plain = simPod('x', { labels: { app: 'db' }, cpu: '4' });
    expect(
      reasonsOf(schedulePod(podInfoOf(plain), { ...snapshot, nodes: snapshot.nodes.slice(0, 1) })),
    ).toEqual({
      a: ["node(s) didn't satisfy existing pods anti-affinity rules"],
    });
    const withWeb = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } },
        ],
      },
    };
    // No web pod anywhere and the pod is not web itself: nowhere to go.
    const cache = simPod('cache', { labels: { app: 'cache' }, spec: { affinity: withWeb } });
    expect(reasonsOf(schedulePod(podInfoOf(cache), snapshot))).toEqual({
      a: ["node(s) didn't match pod affinity rules"],
      b: ["node(s) didn't match pod affinity rules"],
    });
    // The first web pod may go anywhere; once one runs on b, the next follows it.
    const web1 = simPod('web1', { labels: { app: 'web' }, spec: { affinity: withWeb } });
    expect(nodeOf(schedulePod(podInfoOf(web1), snapshot))).toBe('b');
    const withWebOnB = cluster(
      [simNode('a'), simNode('b')],
      [db1, { ...web1, spec: { ...web1.spec, nodeName: 'b' } }],
    );
    const web2 = simPod('web2', { labels: { app: 'web' }, cpu: '3', spec: { affinity: withWeb } });
    expect(nodeOf(schedulePod(podInfoOf(web2), withWebOnB))).toBe('b');
    expect(nodeOf(schedulePod(podInfoOf(cache), withWebOnB))).toBe('b');
  });
});

describe('schedulePod scoring', () => {
  it('prefers the least allocated node, counting default requests for containers without any', () => {
    const snapshot = cluster(
      [simNode('a', { cpu: '4', memory: '8Gi' }), simNode('b', { cpu: '4', memory: '8Gi' })],
      [simPod('x', { nodeName: 'a' })],
    );
    // x requests nothing but scores as 100m / 200Mi, so b is emptier.
    const result = schedulePod(podInfoOf(simPod('p', { cpu: '1', memory: '1Gi' })), snapshot);
    expect(result).toMatchObject({ scheduled: true });
    if (!result.scheduled) return;
    expect(result.node.name).toBe('b');
    // cpu (4000-1000)*100/4000 = 75; memory (8Gi-1Gi)*100/8Gi = 87 (integer); (75+87)/2 = 81.
    expect(result.score).toBe(81);
  });

  it('describes an empty cluster as kube-scheduler does', () => {
    expect(fitErrorMessage(0, new Map())).toBe('no nodes available to schedule pods');
    expect(schedulePod(podInfoOf(simPod('p')), cluster([]))).toMatchObject({
      scheduled: false,
      message: 'no nodes available to schedule pods',
    });
  });
});
