import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labels, NormalizedLabels, WellKnownLabels } from '../../apis/labels.js';
import { normalizeLabelKey } from './label-keys.js';
import type { NodeSelectorRequirementInput, RequirementOperator } from './node-selector.js';
import { Requirement } from './requirement.js';
import { AllowUndefinedWellKnownLabels, Requirements } from './requirements.js';

const ZONE = Labels.Zone;
const nsr = (
  key: string,
  operator: RequirementOperator,
  ...values: string[]
): NodeSelectorRequirementInput => ({
  key,
  operator,
  values,
});
const reqs = (...rs: NodeSelectorRequirementInput[]) => Requirements.fromNodeSelectorRequirements(rs);

describe('Requirements construction', () => {
  it('intersects requirements on the same key', () => {
    const r = reqs(nsr(ZONE, 'In', 'a', 'b', 'c'), nsr(ZONE, 'NotIn', 'b'), nsr(Labels.Arch, 'In', 'amd64'));
    expect(r.size).toBe(2);
    expect(r.get(ZONE)?.sortedValues()).toEqual(['a', 'c']);
    expect(r.keys()).toEqual([ZONE, Labels.Arch]);
    expect(r.has(Labels.Arch)).toBe(true);
    expect(r.get(Labels.OS)).toBeUndefined();
  });

  it('reads minValues and null fields', () => {
    const r = Requirements.fromNodeSelectorRequirements([
      { key: Labels.InstanceType, operator: 'In', values: ['m5.large', 'm5.xlarge'], minValues: 2 },
      { key: 'custom', operator: 'Exists', values: null, minValues: null },
    ]);
    expect(r.get(Labels.InstanceType)?.minValues).toBe(2);
    expect(r.hasMinValues()).toBe(true);
    expect(reqs(nsr('custom', 'Exists')).hasMinValues()).toBe(false);
    expect(Requirements.fromNodeSelectorRequirements(undefined).size).toBe(0);
  });

  it('builds In requirements from labels, normalising beta keys', () => {
    const r = Requirements.fromLabels({ 'failure-domain.beta.kubernetes.io/zone': 'a', team: 'x' });
    expect(r.get(ZONE)?.toString()).toBe(`${ZONE} In [a]`);
    expect(r.labels()).toEqual({ [ZONE]: 'a', team: 'x' });
    expect(Requirements.fromLabels(new Map([['k', 'v']])).labels()).toEqual({ k: 'v' });
    expect(Requirements.fromLabels(undefined).size).toBe(0);
  });

  it('reports single-valued keys as labels', () => {
    const r = reqs(
      nsr(ZONE, 'In', 'a'),
      nsr(Labels.Arch, 'In', 'amd64', 'arm64'),
      nsr('x', 'NotIn', 'y'),
      nsr('g', 'Gte', '3'),
    );
    expect(r.labels()).toEqual({ [ZONE]: 'a' });
  });

  it('copies independently and intersects into a new set', () => {
    const base = reqs(nsr(ZONE, 'In', 'a', 'b'));
    const copy = base.copy().add(Requirement.create(ZONE, 'In', ['a']));
    expect(base.get(ZONE)?.sortedValues()).toEqual(['a', 'b']);
    expect(copy.get(ZONE)?.sortedValues()).toEqual(['a']);
    const both = base.intersection(reqs(nsr(ZONE, 'NotIn', 'a'), nsr('k', 'Exists')));
    expect(both.toString()).toBe(`k Exists, ${ZONE} In [b]`);
    expect(base.size).toBe(1);
    expect([...both].map((r) => r.key)).toEqual([ZONE, 'k']);
  });

  it('writes node selector requirements back', () => {
    const r = reqs(nsr(ZONE, 'In', 'b', 'a'), nsr('cpu', 'Gt', '4'), nsr('cpu', 'Lt', '17'));
    expect(r.toNodeSelectorRequirements()).toEqual([
      { key: ZONE, operator: 'In', values: ['a', 'b'] },
      { key: 'cpu', operator: 'Gte', values: ['5'] },
      { key: 'cpu', operator: 'Lte', values: ['16'] },
    ]);
  });
});

describe('Requirements.intersects', () => {
  it('explains the key that conflicts', () => {
    const node = reqs(nsr(ZONE, 'In', 'zone-a'));
    const pod = reqs(nsr(ZONE, 'In', 'zone-b'));
    expect(node.intersects(pod)).toBe(false);
    expect(node.intersectionConflict(pod)?.message).toBe(
      `key ${ZONE}: In [zone-b] does not intersect In [zone-a]`,
    );
    expect(node.intersectionConflict(pod)?.kind).toBe('disjoint');
    expect(String(node.intersectionConflict(pod))).toContain('does not intersect');
  });

  it('ignores keys only one side defines', () => {
    expect(reqs(nsr(ZONE, 'In', 'a')).intersects(reqs(nsr(Labels.Arch, 'In', 'arm64')))).toBe(true);
    expect(reqs(nsr(ZONE, 'In', 'a')).intersectionConflict(reqs(nsr('x', 'In', 'y')))).toBeUndefined();
  });

  it('lets requirements that both admit a missing label agree', () => {
    expect(reqs(nsr('x', 'NotIn', 'a')).intersects(reqs(nsr('x', 'DoesNotExist')))).toBe(true);
    expect(reqs(nsr('x', 'DoesNotExist')).intersects(reqs(nsr('x', 'DoesNotExist')))).toBe(true);
    expect(reqs(nsr('x', 'Exists')).intersects(reqs(nsr('x', 'DoesNotExist')))).toBe(false);
    expect(reqs(nsr('x', 'Gt', '1')).intersectionConflict(reqs(nsr('x', 'DoesNotExist')))?.message).toBe(
      'key x: DoesNotExist does not intersect Gte 2',
    );
  });
});

describe('Requirements.isCompatible', () => {
  const node = reqs(nsr(ZONE, 'In', 'a', 'b'), nsr(Labels.CapacityType, 'In', 'spot'));

  it('requires keys only the incoming side defines to admit absence', () => {
    expect(node.isCompatible(reqs(nsr('team', 'NotIn', 'x')))).toBe(true);
    expect(node.isCompatible(reqs(nsr('team', 'DoesNotExist')))).toBe(true);
    expect(node.isCompatible(reqs(nsr('team', 'Exists')))).toBe(false);
    expect(node.isCompatible(reqs(nsr('team', 'In', 'x')))).toBe(false);
    expect(node.compatibilityConflict(reqs(nsr('team', 'In', 'x')))?.message).toBe(
      'label "team" does not have known values',
    );
    // Exists ∩ NotIn still needs the label, unlike NotIn alone.
    expect(node.isCompatible(reqs(nsr('team', 'Exists'), nsr('team', 'NotIn', 'x')))).toBe(false);
  });

  it('allows undefined well-known labels when asked', () => {
    const pod = reqs(nsr(Labels.Arch, 'In', 'arm64'), nsr(ZONE, 'In', 'b'));
    expect(node.isCompatible(pod)).toBe(false);
    expect(node.isCompatible(pod, AllowUndefinedWellKnownLabels)).toBe(true);
    expect(node.compatibilityConflict(pod, AllowUndefinedWellKnownLabels)).toBeUndefined();
    expect(node.isCompatible(reqs(nsr(ZONE, 'In', 'c')), AllowUndefinedWellKnownLabels)).toBe(false);
  });

  it('hints at a likely typo', () => {
    expect(
      new Requirements().compatibilityConflict(reqs(nsr('zone', 'In', 'a')), AllowUndefinedWellKnownLabels)
        ?.message,
    ).toBe(`label "zone" does not have known values (typo of "${ZONE}"?)`);
    expect(
      reqs(nsr('example.com/team', 'In', 'a')).compatibilityConflict(reqs(nsr('team', 'In', 'a')))?.message,
    ).toBe('label "team" does not have known values (typo of "example.com/team"?)');
  });

  it('lists every conflict', () => {
    const pod = reqs(nsr(ZONE, 'In', 'c'), nsr('team', 'In', 'x'), nsr(Labels.CapacityType, 'In', 'spot'));
    expect(node.conflicts(pod).map((c) => `${c.kind}:${c.key}`)).toEqual([
      `disjoint:${ZONE}`,
      'undefined:team',
    ]);
    expect(node.conflicts(reqs(nsr(ZONE, 'In', 'a')))).toEqual([]);
  });
});

const KEYS = ['k1', 'k2', 'k3'];
const reqArb = fc.oneof(
  fc
    .tuple(fc.constantFrom<RequirementOperator>('In', 'NotIn'), fc.subarray(['a', 'b', '1', '5']))
    .map(([op, values]) => ({ operator: op, values })),
  fc
    .constantFrom<RequirementOperator>('Exists', 'DoesNotExist')
    .map((op) => ({ operator: op, values: [] as string[] })),
  fc
    .tuple(fc.constantFrom<RequirementOperator>('Gt', 'Lt', 'Gte', 'Lte'), fc.integer({ min: 0, max: 6 }))
    .map(([op, v]) => ({ operator: op, values: [String(v)] })),
);
const requirementsArb = (keys: fc.Arbitrary<string[]>) =>
  keys.chain((ks) =>
    fc
      .array(fc.tuple(fc.constantFrom(...ks), reqArb), { minLength: ks.length, maxLength: ks.length + 2 })
      .map((entries) => {
        const out = reqs(...entries.map(([key, r]) => ({ key, ...r })));
        // make sure every key is present
        for (const k of ks) if (!out.has(k)) out.add(Requirement.create(k, 'Exists'));
        return out;
      }),
  );

describe('Requirements properties', () => {
  it('intersects is symmetric, and compatible is symmetric when both define the same keys', () => {
    const same = requirementsArb(fc.constant(KEYS));
    fc.assert(
      fc.property(same, same, (a, b) => {
        expect(a.intersects(b)).toBe(b.intersects(a));
        expect(a.isCompatible(b)).toBe(b.isCompatible(a));
        expect(a.isCompatible(b)).toBe(a.intersects(b));
      }),
      { numRuns: 1000 },
    );
  });

  it('the fast answers agree with the explained ones', () => {
    const any = requirementsArb(fc.subarray(KEYS, { minLength: 1 }));
    fc.assert(
      fc.property(any, any, fc.boolean(), (a, b, allowAll) => {
        const options = allowAll ? { allowUndefined: new Set(KEYS) } : undefined;
        expect(a.isCompatible(b, options)).toBe(a.compatibilityConflict(b, options) === undefined);
        expect(a.isCompatible(b, options)).toBe(a.conflicts(b, options).length === 0);
        expect(a.intersects(b)).toBe(a.intersectionConflict(b) === undefined);
        if (allowAll) expect(a.isCompatible(b, options)).toBe(a.intersects(b));
        // compatible implies intersecting; compatibility of the intersection with each side
        if (a.isCompatible(b)) expect(a.intersects(b)).toBe(true);
        const ab = a.intersection(b);
        const shared = a.keys().filter((k) => b.has(k));
        expect(a.intersects(b)).toBe(shared.every((k) => !ab.get(k)!.isUnsatisfiable()));
      }),
      { numRuns: 1000 },
    );
  });

  it('normalisation is idempotent and maps aliases to their stable key', () => {
    const keyArb = fc.oneof(fc.constantFrom(...NormalizedLabels.keys(), ...WellKnownLabels), fc.string());
    fc.assert(
      fc.property(keyArb, (k) => {
        const once = normalizeLabelKey(k);
        expect(normalizeLabelKey(once)).toBe(once);
        if (NormalizedLabels.has(k)) expect(once).toBe(NormalizedLabels.get(k));
        else expect(once).toBe(k);
      }),
    );
  });
});
