import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type NodeSelectorRequirement,
  parseInt64,
  RequirementError,
  type RequirementOperator,
} from './node-selector.js';
import { Requirement } from './requirement.js';
import { Requirements } from './requirements.js';

const KEY = 'example.com/size';
const req = (op: RequirementOperator, ...values: string[]) => Requirement.create(KEY, op, values);

/** Kubernetes' node selector matching for one requirement against a label value (undefined: absent). */
function k8sMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default: {
      if (value === undefined) return false;
      const v = parseInt64(value);
      if (v === undefined) return false;
      const n = BigInt(values[0]!);
      if (r.operator === 'Gt') return v > n;
      if (r.operator === 'Lt') return v < n;
      if (r.operator === 'Gte') return v >= n;
      return v <= n;
    }
  }
}

const matches = (r: Requirement, value: string | undefined) =>
  value === undefined ? r.admitsAbsence() : r.has(value);

const UNIVERSE: ReadonlyArray<string | undefined> = [
  undefined,
  'a',
  'b',
  'c',
  '',
  'x1',
  '0',
  '1',
  '5',
  '6',
  '7',
  '10',
  '-3',
  '+5',
  '007',
  '-0',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
];

const intArb = fc.oneof(
  fc.integer({ min: -4, max: 12 }).map(String),
  fc.constantFrom('9007199254740992', '9223372036854775807', '-9223372036854775808', '-9223372036854775807'),
);
const nsrArb: fc.Arbitrary<NodeSelectorRequirement> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom<RequirementOperator>('In', 'NotIn'),
      fc.subarray(['a', 'b', 'c', '', '0', '1', '5', '7', '10', '+5', '007', '9223372036854775807']),
    )
    .map(([operator, values]) => ({ key: KEY, operator, values })),
  fc.constantFrom<RequirementOperator>('Exists', 'DoesNotExist').map((operator) => ({ key: KEY, operator })),
  fc
    .tuple(fc.constantFrom<RequirementOperator>('Gt', 'Lt', 'Gte', 'Lte'), intArb)
    .map(([operator, v]) => ({ key: KEY, operator, values: [v] })),
);
const withMinValues = fc
  .tuple(nsrArb, fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }))
  .map(([r, minValues]) => (minValues === undefined ? r : { ...r, minValues }));
const requirementArb = fc.array(withMinValues, { minLength: 1, maxLength: 3 }).map((rs) => {
  const r = Requirements.fromNodeSelectorRequirements(rs).get(KEY)!;
  return { rs, r };
});

describe('Requirement operators', () => {
  it('In admits its values and needs the label', () => {
    const r = req('In', 'a', 'b');
    expect([r.has('a'), r.has('b'), r.has('c'), r.admitsAbsence()]).toEqual([true, true, false, false]);
    expect(r.operator()).toBe('In');
    expect(r.len()).toBe(2);
    expect(r.any()).toBe('a');
    expect(r.toNodeSelectorRequirements()).toEqual([{ key: KEY, operator: 'In', values: ['a', 'b'] }]);
    expect(r.toString()).toBe(`${KEY} In [a, b]`);
  });

  it('NotIn excludes its values and admits a missing label', () => {
    const r = req('NotIn', 'a');
    expect([r.has('a'), r.has('b'), r.admitsAbsence()]).toEqual([false, true, true]);
    expect(r.operator()).toBe('NotIn');
    expect(r.len()).toBe(Number.POSITIVE_INFINITY);
    expect(r.toNodeSelectorRequirement()).toEqual({ key: KEY, operator: 'NotIn', values: ['a'] });
  });

  it('Exists admits any value, DoesNotExist only absence', () => {
    const e = req('Exists');
    const d = req('DoesNotExist');
    expect([e.has('anything'), e.has(''), e.admitsAbsence(), e.operator()]).toEqual([
      true,
      true,
      false,
      'Exists',
    ]);
    expect([d.has('anything'), d.admitsAbsence(), d.operator(), d.len()]).toEqual([
      false,
      true,
      'DoesNotExist',
      0,
    ]);
    expect(d.any()).toBeUndefined();
    expect(e.toNodeSelectorRequirements()).toEqual([{ key: KEY, operator: 'Exists' }]);
    expect(d.toNodeSelectorRequirements()).toEqual([{ key: KEY, operator: 'DoesNotExist' }]);
    expect(e.describe()).toBe('Exists');
  });

  it('Gt and Lt become inclusive bounds on integer values', () => {
    const gt = req('Gt', '5');
    expect(['5', '6', '+6', '007', '-1', 'x', '6.0', ' 6'].map((v) => gt.has(v))).toEqual([
      false,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(gt.admitsAbsence()).toBe(false);
    expect(gt.operator()).toBe('Exists');
    expect(gt.gte).toBe(6n);
    expect(gt.toNodeSelectorRequirements()).toEqual([{ key: KEY, operator: 'Gte', values: ['6'] }]);
    expect(gt.any()).toBe('6');
    const lt = req('Lt', '5');
    expect(['4', '5', '-100'].map((v) => lt.has(v))).toEqual([true, false, true]);
    expect(lt.describe()).toBe('Lte 4');
    expect(lt.any()).toBe('0');
    expect(req('Lt', '-2').any()).toBe('-3');
    const last = req('Gte', '9223372036854775807').intersection(req('NotIn', '9223372036854775807'));
    expect(last.any()).toBe('09223372036854775807');
    expect(last.has(last.any()!)).toBe(true);
  });

  it('Gte and Lte include their bound', () => {
    expect(['4', '5', '6'].map((v) => req('Gte', '5').has(v))).toEqual([false, true, true]);
    expect(['4', '5', '6'].map((v) => req('Lte', '5').has(v))).toEqual([true, true, false]);
  });

  it('compares integers beyond 2^53 exactly', () => {
    const gt = req('Gt', '9007199254740993');
    expect(gt.has('9007199254740993')).toBe(false);
    expect(gt.has('9007199254740994')).toBe(true);
    expect(gt.has('123')).toBe(false);
    expect(req('Lt', '9007199254740993').has('123')).toBe(true);
    expect(req('Gt', '0').has('9223372036854775807')).toBe(true);
    expect(req('Gt', '0').has('9223372036854775808')).toBe(false);
  });

  it('treats bounds no int64 can meet as unsatisfiable', () => {
    const none = req('Gt', '9223372036854775807');
    expect(none.isUnsatisfiable()).toBe(true);
    expect(none.has('9223372036854775807')).toBe(false);
    expect(req('Lt', '-9223372036854775808').isUnsatisfiable()).toBe(true);
    expect(req('Gt', '5').intersection(req('Lt', '6')).isUnsatisfiable()).toBe(true);
    expect(req('Gte', '5').intersection(req('Lte', '5')).has('5')).toBe(true);
  });

  it('rejects what it cannot interpret', () => {
    const cases: Array<[RequirementOperator | string, string[], string]> = [
      ['Gt', [], 'key example.com/size: operator Gt takes exactly one integer value, got []'],
      ['Lt', ['a'], 'operator Lt takes exactly one integer value, got ["a"]'],
      ['Gte', ['1', '2'], 'operator Gte takes exactly one integer value'],
      ['Lte', ['1.5'], 'operator Lte takes exactly one integer value'],
      ['Gt', ['9223372036854775808'], 'operator Gt takes exactly one integer value'],
      ['Exists', ['a'], 'operator Exists takes no values, got ["a"]'],
      ['DoesNotExist', ['a'], 'operator DoesNotExist takes no values'],
      ['Near', ['a'], 'unknown operator "Near"'],
    ];
    for (const [op, values, message] of cases) {
      expect(() => Requirement.create(KEY, op, values)).toThrow(RequirementError);
      expect(() => Requirement.create(KEY, op, values)).toThrow(message);
    }
    expect(() => Requirement.create(KEY, 'In', ['a'], 0)).toThrow(
      'minValues must be a positive integer, got 0',
    );
  });

  it('normalises beta label keys', () => {
    expect(Requirement.create('beta.kubernetes.io/arch', 'In', ['amd64']).key).toBe('kubernetes.io/arch');
    expect(Requirement.create('failure-domain.beta.kubernetes.io/zone', 'Exists').key).toBe(
      'topology.kubernetes.io/zone',
    );
  });

  it('shortens long value lists in descriptions', () => {
    const r = req('In', 'g', 'f', 'e', 'd', 'c', 'b', 'a');
    expect(r.describe()).toBe('In [a, b, c, d, e and 2 others]');
    expect(Requirement.create(KEY, 'In', ['a', 'b'], 2).describe()).toBe('In [a, b] (minValues 2)');
  });
});

describe('Requirement.intersection', () => {
  it.each([
    [req('In', 'a', 'b'), req('In', 'b', 'c'), `${KEY} In [b]`],
    [req('In', 'a'), req('In', 'b'), `${KEY} In []`],
    [req('In', 'a', 'b'), req('NotIn', 'a'), `${KEY} In [b]`],
    [req('NotIn', 'a'), req('NotIn', 'b'), `${KEY} NotIn [a, b]`],
    [req('NotIn', 'a'), req('DoesNotExist'), `${KEY} DoesNotExist`],
    [req('Exists'), req('DoesNotExist'), `${KEY} In []`],
    [req('Exists'), req('NotIn', 'a'), `${KEY} Exists and NotIn [a]`],
    [req('Gt', '1'), req('Lt', '10'), `${KEY} Gte 2 and Lte 9`],
    [req('In', '1', '5', '10', 'x'), req('Gt', '3'), `${KEY} In [10, 5]`],
    [req('NotIn', '7', 'x', '3'), req('Gt', '5'), `${KEY} Gte 6 and NotIn [7]`],
    [req('In', 'a'), req('Exists'), `${KEY} In [a]`],
  ])('%s ∩ %s is %s', (a, b, expected) => {
    expect(a.intersection(b).toString()).toBe(expected);
    expect(b.intersection(a).toString()).toBe(expected);
  });

  it('distinguishes matching nothing from matching absence', () => {
    const nothing = req('In', 'a').intersection(req('In', 'b'));
    expect(nothing.isUnsatisfiable()).toBe(true);
    expect(nothing.admitsAbsence()).toBe(false);
    expect(nothing.operator()).toBe('In');
    expect(nothing.toNodeSelectorRequirements()).toEqual([{ key: KEY, operator: 'In', values: [] }]);
    const absent = req('NotIn', 'a').intersection(req('DoesNotExist'));
    expect(absent.isUnsatisfiable()).toBe(false);
    expect(absent.operator()).toBe('DoesNotExist');
    expect(req('In', 'a').intersects(req('In', 'b'))).toBe(false);
    expect(req('NotIn', 'a').intersects(req('DoesNotExist'))).toBe(true);
    expect(req('Exists').intersects(req('DoesNotExist'))).toBe(false);
    expect(req('Gt', '3').intersects(req('DoesNotExist'))).toBe(false);
    expect(req('Gt', '3').intersects(req('NotIn', '4'))).toBe(true);
  });

  it('gives back an operand unchanged instead of rebuilding it', () => {
    const narrow = req('In', 'b');
    expect(narrow.intersection(req('In', 'a', 'b', 'c'))).toBe(narrow);
    expect(req('In', 'a', 'b', 'c').intersection(narrow)).toBe(narrow);
    expect(narrow.intersection(req('NotIn', 'a'))).toBe(narrow);
    expect(narrow.intersection(req('In', 'a', 'b')).equals(narrow)).toBe(true);
  });

  it('keeps the larger minValues', () => {
    const a = Requirement.create(KEY, 'In', ['a', 'b', 'c'], 2);
    const b = Requirement.create(KEY, 'In', ['a', 'b'], 1);
    expect(a.intersection(b).minValues).toBe(2);
    expect(a.intersection(req('Exists')).minValues).toBe(2);
  });

  it('states bounded exclusions exactly as node selector requirements', () => {
    const r = req('Gt', '1').intersection(req('Lt', '10')).intersection(req('NotIn', '7'));
    expect(r.toNodeSelectorRequirements()).toEqual([
      { key: KEY, operator: 'Gte', values: ['2'] },
      { key: KEY, operator: 'Lte', values: ['9'] },
      { key: KEY, operator: 'NotIn', values: ['7'] },
    ]);
    expect(r.toNodeSelectorRequirement()).toEqual({ key: KEY, operator: 'Gte', values: ['2'] });
    const e = Requirement.create(KEY, 'Exists', [], 2).intersection(req('NotIn', 'a'));
    expect(e.toNodeSelectorRequirements()).toEqual([
      { key: KEY, operator: 'Exists', minValues: 2 },
      { key: KEY, operator: 'NotIn', values: ['a'], minValues: 2 },
    ]);
  });
});

describe('Requirement properties', () => {
  it('a requirement admits exactly what Kubernetes matches', () => {
    fc.assert(
      fc.property(withMinValues, (n) => {
        const r = Requirement.fromNodeSelectorRequirement(n);
        for (const v of UNIVERSE) expect(matches(r, v)).toBe(k8sMatches(n, v));
      }),
      { numRuns: 500 },
    );
  });

  it('x ∈ a∩b ⇔ x ∈ a ∧ x ∈ b, for values and for absence', () => {
    fc.assert(
      fc.property(requirementArb, requirementArb, ({ rs: as, r: a }, { rs: bs, r: b }) => {
        const ab = a.intersection(b);
        for (const v of UNIVERSE) {
          expect(matches(ab, v)).toBe(matches(a, v) && matches(b, v));
          expect(matches(ab, v)).toBe([...as, ...bs].every((n) => k8sMatches(n, v)));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('intersection is commutative and associative', () => {
    fc.assert(
      fc.property(requirementArb, requirementArb, requirementArb, ({ r: a }, { r: b }, { r: c }) => {
        expect(a.intersection(b).equals(b.intersection(a))).toBe(true);
        const left = a.intersection(b).intersection(c);
        const right = a.intersection(b.intersection(c));
        for (const v of UNIVERSE) expect(matches(left, v)).toBe(matches(right, v));
        expect(left.isUnsatisfiable()).toBe(right.isUnsatisfiable());
        expect(left.minValues).toBe(right.minValues);
      }),
      { numRuns: 1000 },
    );
  });

  it('intersects agrees with the built intersection and finds a witness', () => {
    fc.assert(
      fc.property(requirementArb, requirementArb, ({ r: a }, { r: b }) => {
        const yes = a.intersects(b);
        expect(yes).toBe(b.intersects(a));
        const ab = a.intersection(b);
        expect(yes).toBe(!ab.isUnsatisfiable());
        if (yes) {
          const witness = ab.any();
          expect(
            (a.admitsAbsence() && b.admitsAbsence()) ||
              (witness !== undefined && a.has(witness) && b.has(witness)),
          ).toBe(true);
        } else {
          for (const v of UNIVERSE) expect(matches(a, v) && matches(b, v)).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('any() is admitted, and undefined only when no value is', () => {
    fc.assert(
      fc.property(requirementArb, ({ r }) => {
        const v = r.any();
        if (v !== undefined) expect(r.has(v)).toBe(true);
        else expect(UNIVERSE.some((u) => u !== undefined && r.has(u))).toBe(false);
        expect(v === undefined).toBe(!r.admitsSomeValue());
      }),
      { numRuns: 1000 },
    );
  });

  it('round-trips through node selector requirements', () => {
    fc.assert(
      fc.property(requirementArb, ({ r }) => {
        const back = Requirements.fromNodeSelectorRequirements(r.toNodeSelectorRequirements()).get(KEY)!;
        expect(back.equals(r)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
