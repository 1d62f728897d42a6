import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LabelSelector } from '../../../apis/kubernetes/label-selector.js';
import { boundPod, pdb } from '../../../testing/disruption-builders.js';
import { type PdbLimit, PdbLimits, pdbLimits } from './pdb-limits.js';

const Keys = ['app', 'tier', 'team'];
const Values = ['a', 'b', 'c'];
const Namespaces = ['default', 'prod'];

/** Kubernetes' selector semantics written out here, apart from the index under test. */
function selects(selector: LabelSelector | null | undefined, labels: Record<string, string>): boolean {
  if (selector === undefined || selector === null) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  return (selector.matchExpressions ?? []).every((e) => {
    const has = Object.hasOwn(labels, e.key);
    const values = e.values ?? [];
    if (e.operator === 'In') return has && values.includes(labels[e.key]!);
    if (e.operator === 'NotIn') return !has || !values.includes(labels[e.key]!);
    return e.operator === 'Exists' ? has : !has;
  });
}

const labelsArb = fc.dictionary(fc.constantFrom(...Keys), fc.constantFrom(...Values), { maxKeys: 3 });
const selectorArb: fc.Arbitrary<LabelSelector | null | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.record({
    matchLabels: labelsArb,
    matchExpressions: fc.array(
      fc.oneof(
        fc.record({
          key: fc.constantFrom(...Keys),
          operator: fc.constantFrom('In' as const, 'NotIn' as const),
          values: fc.array(fc.constantFrom(...Values), { minLength: 1, maxLength: 2 }),
        }),
        fc.record({
          key: fc.constantFrom(...Keys),
          operator: fc.constantFrom('Exists' as const, 'DoesNotExist' as const),
        }),
      ),
      { maxLength: 2 },
    ),
  }),
);
const limitArb = fc.record({
  namespace: fc.constantFrom(...Namespaces),
  selector: selectorArb,
  disruptionsAllowed: fc.nat(2),
  alwaysAllowUnhealthy: fc.boolean(),
});

describe('PdbLimits.matching', () => {
  it('finds exactly the PDBs of the pod namespace whose selector selects its labels, in order', () => {
    fc.assert(
      fc.property(
        fc.array(limitArb, { maxLength: 12 }),
        fc.array(fc.record({ namespace: fc.constantFrom(...Namespaces), labels: labelsArb }), {
          maxLength: 10,
        }),
        (raw, pods) => {
          const limits: PdbLimit[] = raw.map((l, i) => ({ ...l, key: `${l.namespace}/pdb-${i}` }));
          const index = new PdbLimits(limits);
          for (const p of pods) {
            const pod = boundPod('p', 'n1', { namespace: p.namespace, labels: p.labels });
            const expected = limits.filter(
              (l) => l.namespace === p.namespace && selects(l.selector, p.labels),
            );
            expect(index.matching(pod)).toEqual(expected);
          }
        },
      ),
    );
  });
});

describe('pdbLimits', () => {
  it("computes a PDB's allowance without a status from the pods it selects only", () => {
    const pods = [
      boundPod('db-0', 'n1', { labels: { app: 'db' } }),
      boundPod('db-1', 'n1', { labels: { app: 'db' } }),
      boundPod('db-2', 'n1', { labels: { app: 'db' } }),
      boundPod('web-0', 'n1', { labels: { app: 'web' } }),
      boundPod('db-other', 'n1', { namespace: 'prod', labels: { app: 'db' } }),
    ];
    const limits = pdbLimits([pdb('db', { matchLabels: { app: 'db' }, minAvailable: 2 })], pods, 0);
    // Three Ready db pods in default, two must stay: one disruption.
    expect(limits.all.map((l) => l.disruptionsAllowed)).toEqual([1]);
  });
});
