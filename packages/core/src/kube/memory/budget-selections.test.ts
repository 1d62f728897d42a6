import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesLabelSelector } from '../../apis/kubernetes/label-selector.js';
import {
  type ControllerScale,
  computeDisruptionBudgetStatus,
  type PodDisruptionBudgetLike,
} from '../disruption-budget.js';
import { controllerOf, formatTime, type KubeObject } from '../object.js';
import { isPodReady, type PodLike } from '../pod.js';
import type { ResourceType } from '../resource-type.js';
import { typeKey } from '../resource-type.js';
import { PodDisruptionBudgets, ReplicaSets, Pods as TypedPods } from '../resource-types.js';
import { BudgetSelections } from './budget-selections.js';
import type { MemoryCluster } from './memory-cluster.js';
import { ObjectStore, storeKey } from './object-store.js';
import { PodBudgetFacts } from './pod-budget-facts.js';
import { budgetPod, Gadgets, newCluster, podObject } from './test-fixtures.js';

// The port's contract is kind-agnostic: these tests write pods with only the fields at stake.
const Pods: ResourceType = TypedPods;

const NAMES = ['p0', 'p1', 'p2', 'p3'];
const NAMESPACES = ['default', 'kube-system'];
const LABELS: Record<string, string>[] = [{ app: 'web' }, { app: 'db' }, { app: 'web', tier: 'x' }, {}];
/**
 * Owners: two ReplicaSets, a Gadget (a kind with no scale, so its pods' controller is not found;
 * a missing owner would have its pods garbage-collected), and none.
 */
const OWNERS = ['rs-a', 'rs-b', 'gadget', undefined] as const;

type Op =
  | { op: 'create'; name: string; namespace: string; labels: number; owner: number; ready: boolean }
  | { op: 'relabel'; name: string; namespace: string; labels: number }
  | { op: 'ready'; name: string; namespace: string; ready: boolean }
  | { op: 'terminate'; name: string; namespace: string }
  | { op: 'delete'; name: string; namespace: string }
  | { op: 'approve'; pdb: number; name: string; agoSeconds: number }
  | { op: 'tick'; seconds: number };

const target = { name: fc.constantFrom(...NAMES), namespace: fc.constantFrom(...NAMESPACES) };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('create' as const),
    ...target,
    labels: fc.nat(LABELS.length - 1),
    owner: fc.nat(OWNERS.length - 1),
    ready: fc.boolean(),
  }),
  fc.record({ op: fc.constant('relabel' as const), ...target, labels: fc.nat(LABELS.length - 1) }),
  fc.record({ op: fc.constant('ready' as const), ...target, ready: fc.boolean() }),
  fc.record({ op: fc.constant('terminate' as const), ...target }),
  fc.record({ op: fc.constant('delete' as const), ...target }),
  fc.record({
    op: fc.constant('approve' as const),
    pdb: fc.nat(2),
    name: fc.constantFrom(...NAMES),
    agoSeconds: fc.nat(240),
  }),
  fc.record({ op: fc.constant('tick' as const), seconds: fc.nat(90) }),
);

const SPECS: PodDisruptionBudgetLike['spec'][] = [
  { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
  { selector: { matchLabels: { tier: 'x' } }, minAvailable: '50%' },
  { selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, minAvailable: 2 },
];

async function setUp(): Promise<{ cluster: MemoryCluster; now: () => number; step: (ms: number) => void }> {
  const { cluster, clock } = newCluster();
  for (const [index, name] of ['rs-a', 'rs-b'].entries()) {
    await cluster.create(ReplicaSets, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: 'default' },
      spec: { replicas: 3 + index * 2 },
    } as KubeObject);
  }
  await cluster.create(Gadgets, {
    apiVersion: 'example.com/v1',
    kind: 'Gadget',
    metadata: { name: 'gadget', namespace: 'default' },
  });
  for (const [index, spec] of SPECS.entries()) {
    await cluster.create(PodDisruptionBudgets, {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: `pdb-${index}`, namespace: 'default' },
      spec,
    } as KubeObject);
  }
  return { cluster, now: () => clock.now(), step: (ms) => clock.step(ms) };
}

async function apply(cluster: MemoryCluster, now: number, step: (ms: number) => void, op: Op): Promise<void> {
  if (op.op === 'tick') {
    step(op.seconds * 1000);
    return;
  }
  if (op.op === 'approve') {
    const pdb = cluster.peek<PodDisruptionBudgetLike>(PodDisruptionBudgets, { namespace: 'default' })[
      op.pdb
    ]!;
    await cluster.updateStatus(PodDisruptionBudgets, {
      ...pdb,
      status: {
        ...pdb.status,
        disruptedPods: { ...pdb.status?.disruptedPods, [op.name]: formatTime(now - op.agoSeconds * 1000) },
      },
    });
    return;
  }
  const existing = cluster
    .peek<PodLike>(Pods, { namespace: op.namespace })
    .find((p) => p.metadata.name === op.name);
  if (op.op === 'create') {
    if (existing !== undefined) return;
    const owner = OWNERS[op.owner];
    const ownerObject = [...cluster.peek(ReplicaSets), ...cluster.peek(Gadgets)].find(
      (o) => o.metadata.name === owner,
    );
    await cluster.create(
      Pods,
      podObject(op.name, {
        namespace: op.namespace,
        labels: LABELS[op.labels]!,
        finalizers: ['test/hold'],
        ...(owner === undefined
          ? {}
          : {
              ownerReferences: [
                {
                  apiVersion: ownerObject?.apiVersion ?? '',
                  kind: ownerObject?.kind ?? '',
                  name: owner,
                  uid: ownerObject?.metadata.uid ?? '',
                  controller: true,
                },
              ],
            }),
      }),
    );
    const created = cluster
      .peek<PodLike>(Pods, { namespace: op.namespace })
      .find((p) => p.metadata.name === op.name)!;
    await cluster.updateStatus(Pods, {
      ...created,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: op.ready ? 'True' : 'False' }] },
    } as KubeObject);
    return;
  }
  if (existing === undefined) return;
  if (op.op === 'relabel') {
    await cluster.update(Pods, {
      ...existing,
      metadata: { ...existing.metadata, labels: LABELS[op.labels]! },
    });
  } else if (op.op === 'ready') {
    await cluster.updateStatus(Pods, {
      ...existing,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: op.ready ? 'True' : 'False' }] },
    } as KubeObject);
  } else if (op.op === 'terminate') {
    // The finalizer holds it: it stays stored with a deletionTimestamp.
    await cluster.delete(Pods, { name: op.name, namespace: op.namespace });
  } else {
    await cluster.update(Pods, { ...existing, metadata: { ...existing.metadata, finalizers: [] } });
    if (existing.metadata.deletionTimestamp === undefined) {
      await cluster.delete(Pods, { name: op.name, namespace: op.namespace });
    }
  }
}

/** The status from a scan of every stored pod, as before the selections were kept. */
function scanned(cluster: MemoryCluster, pdb: PodDisruptionBudgetLike, now: number) {
  const pods = cluster
    .peek<PodLike>(Pods)
    .filter(
      (pod) =>
        pod.metadata.namespace === pdb.metadata.namespace &&
        matchesLabelSelector(pdb.spec?.selector, pod.metadata.labels),
    );
  const replicaSets = cluster.peek(ReplicaSets);
  const scale = (pod: PodLike): ControllerScale => {
    const ref = controllerOf(pod);
    if (ref === undefined) return 'unmanaged';
    const rs = replicaSets.find((r) => r.metadata.uid === ref.uid);
    if (rs === undefined || pod.metadata.namespace !== rs.metadata.namespace) return undefined;
    return {
      uid: rs.metadata.uid as string,
      replicas: (rs as { spec?: { replicas?: number } }).spec?.replicas ?? 1,
    };
  };
  return {
    pods: pods.map((p) => p.metadata.name).sort(),
    orphans: pods.filter((p) => scale(p) === undefined).map((p) => p.metadata.name),
    status: computeDisruptionBudgetStatus(pdb, pods, scale, now),
  };
}

describe('MemoryCluster.disruptionStatus', () => {
  it('gives every budget the pods and status a scan of all stored pods gives, after any changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const { cluster, now, step } = await setUp();
        for (const op of ops) {
          await apply(cluster, now(), step, op);
          for (const pdb of cluster.peek<PodDisruptionBudgetLike>(PodDisruptionBudgets)) {
            const expected = scanned(cluster, pdb, now());
            // A list is sorted by name; the selection keeps the store's order (checked below).
            expect(
              cluster
                .selectedPods(pdb)
                .map((p) => p.metadata.name)
                .sort(),
            ).toEqual(expected.pods);
            const { error, ...status } = cluster.disruptionStatus(pdb);
            const { error: expectedError, ...expectedStatus } = expected.status;
            expect(status).toEqual(expectedStatus);
            // Which pod the error names depends on the order pods are counted in.
            expect(error === undefined).toBe(expectedError === undefined);
            if (error !== undefined) expect(expected.orphans).toContain(/"(.*)"/.exec(error)?.[1]);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('names the first pod in store order whose controller is missing, as a scan of the store does', async () => {
    const { cluster, now, step } = await setUp();
    await apply(cluster, now(), step, {
      op: 'create',
      name: 'p0',
      namespace: 'default',
      labels: 0,
      owner: 0,
      ready: true,
    });
    await apply(cluster, now(), step, {
      op: 'create',
      name: 'p1',
      namespace: 'default',
      labels: 1,
      owner: 2,
      ready: true,
    });
    await apply(cluster, now(), step, {
      op: 'create',
      name: 'p2',
      namespace: 'default',
      labels: 0,
      owner: 2,
      ready: true,
    });
    const pdb = cluster
      .peek<PodDisruptionBudgetLike>(PodDisruptionBudgets)
      .find((p) => p.metadata.name === 'pdb-0')!;
    expect(cluster.disruptionStatus(pdb).error).toBe('found no controllers for pod "p2"');
    // p1 is selected by pdb-0 only once relabelled, after p2: it still comes first in the store.
    await apply(cluster, now(), step, { op: 'relabel', name: 'p1', namespace: 'default', labels: 0 });
    expect(cluster.selectedPods(pdb).map((p) => p.metadata.name)).toEqual(['p0', 'p1', 'p2']);
    expect(cluster.disruptionStatus(pdb).error).toBe('found no controllers for pod "p1"');
  });
});

type StoreOp =
  | {
      op: 'put';
      name: string;
      namespace: string;
      labels: number;
      owner: number;
      ready: boolean;
      deleting: boolean;
    }
  | { op: 'remove'; name: string; namespace: string };

const storeOpArb: fc.Arbitrary<StoreOp> = fc.oneof(
  fc.record({
    op: fc.constant('put' as const),
    ...target,
    labels: fc.nat(LABELS.length - 1),
    owner: fc.nat(OWNERS.length - 1),
    ready: fc.boolean(),
    deleting: fc.boolean(),
  }),
  fc.record({ op: fc.constant('remove' as const), ...target }),
);

function storedPod(op: Extract<StoreOp, { op: 'put' }>): PodLike {
  return budgetPod({ ...op, labels: LABELS[op.labels]!, owner: OWNERS[op.owner] });
}

describe('BudgetSelections', () => {
  it('keeps each selection in store order with the counts a scan gives, through any writes', () => {
    const podType = typeKey(Pods);
    fc.assert(
      fc.property(fc.array(storeOpArb, { maxLength: 60 }), fc.nat(60), (ops, firstRead) => {
        const facts = new PodBudgetFacts();
        let selections: BudgetSelections | undefined;
        const store = new ObjectStore((change) => selections?.observe(change));
        selections = new BudgetSelections(store, podType, facts);
        const read = () => {
          for (const namespace of NAMESPACES) {
            for (const spec of SPECS) {
              const selector = spec?.selector;
              const got = selections!.of(namespace, JSON.stringify(selector), selector);
              const pods = (store.all(podType) as PodLike[]).filter(
                (pod) =>
                  pod.metadata.namespace === namespace && matchesLabelSelector(selector, pod.metadata.labels),
              );
              expect([...got.pods.keys()]).toEqual(pods.map((p) => p.metadata.name));
              expect(got.readyLive).toBe(
                pods.filter((p) => p.metadata.deletionTimestamp === undefined && isPodReady(p)).length,
              );
              const counts = new Map<string, number>();
              for (const pod of pods) {
                const key = facts.controllerKey(pod);
                if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
              }
              expect(new Map([...got.controllers].map(([key, share]) => [key, share.count]))).toEqual(counts);
              for (const [key, share] of got.controllers) expect(facts.controllerKey(share.pod)).toBe(key);
            }
          }
        };
        // Selections first read part-way through: built by a scan, then kept by the writes.
        for (const [index, op] of ops.entries()) {
          if (index === firstRead) read();
          const key = storeKey(op.namespace, op.name);
          const stored = store.get(podType, key);
          if (op.op === 'remove') {
            if (stored !== undefined) store.remove(podType, key);
          } else if (stored === undefined) {
            store.insert(podType, key, storedPod(op));
          } else {
            store.replace(podType, key, storedPod(op));
          }
          if (index > firstRead) read();
        }
        read();
      }),
      { numRuns: 300 },
    );
  });
});
