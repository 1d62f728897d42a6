import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Quantity } from '../quantity/quantity.js';
import { fits, type ResourceShortfall, shortfalls } from './fits.js';
import {
  addResources,
  parseResourceList,
  type ResourceList,
  resourcesEqual,
  scaleResources,
} from './resource-list.js';
import { ResourceSlots, ResourceVector } from './resource-vector.js';

const U = 1_000_000_000n;
const NAMES = ['cpu', 'memory', 'pods', 'ephemeral-storage', 'nvidia.com/gpu', 'example.com/widget'];

const quantityArb = fc
  .oneof(
    fc.bigInt({ min: -(10n ** 12n), max: 10n ** 18n }),
    fc
      .tuple(fc.bigInt({ min: 0n, max: 4096n }), fc.integer({ min: 0, max: 4 }))
      .map(([k, e]) => k * 1024n ** BigInt(e) * U),
    fc
      .tuple(fc.bigInt({ min: 0n, max: 64_000n }), fc.constantFrom(1_000_000n, U))
      .map(([k, unit]) => k * unit),
    fc.bigInt({ min: -(2n ** 53n - 1n) * U, max: (2n ** 53n - 1n) * U }),
  )
  .map((nanos) => Quantity.fromNanos(nanos));

const listArb: fc.Arbitrary<ResourceList> = fc
  .dictionary(fc.constantFrom(...NAMES), quantityArb, { maxKeys: NAMES.length })
  .map((o) => new Map(Object.entries(o)));

type Plain = { resource: string; kind: string; requested: bigint; available: bigint };
const plain = (s: ResourceShortfall): Plain => ({
  resource: s.resource,
  kind: s.kind,
  requested: s.requested.nanos,
  available: s.available.nanos,
});
const byKey = (a: Plain, b: Plain) => `${a.kind}/${a.resource}`.localeCompare(`${b.kind}/${b.resource}`);

describe('ResourceSlots', () => {
  it('puts the core resources first and registers others on first sight', () => {
    const slots = new ResourceSlots(['nvidia.com/gpu']);
    expect(slots.names()).toEqual(['cpu', 'memory', 'pods', 'ephemeral-storage', 'nvidia.com/gpu']);
    expect(slots.indexOf('example.com/x')).toBe(-1);
    expect(slots.slot('example.com/x')).toBe(5);
    expect(slots.slot('example.com/x')).toBe(5);
    expect(slots.nameOf(1)).toBe('memory');
    expect(() => slots.nameOf(9)).toThrow(RangeError);
  });
});

describe('ResourceVector', () => {
  it('round-trips an exact list', () => {
    const slots = new ResourceSlots();
    const list = parseResourceList({ cpu: '1500m', memory: '1.5Gi', 'nvidia.com/gpu': 2, pods: 0 });
    const v = ResourceVector.fromList(list, slots);
    const back = v.toList(slots);
    expect(resourcesEqual(back, list)).toBe(true);
    expect(back.get('memory')?.toString()).toBe('1536Mi');
    expect(back.has('pods')).toBe(false);
    expect(v.units(0)).toBe(1);
    expect(v.approx(0)).toBe(1.5);
  });

  it('reads slots registered after its creation as zero', () => {
    const slots = new ResourceSlots();
    const small = ResourceVector.fromList(parseResourceList({ cpu: '1' }), slots);
    const big = ResourceVector.fromList(parseResourceList({ cpu: '2', 'nvidia.com/gpu': 1 }), slots);
    expect(small.length).toBe(4);
    expect(big.fits(small)).toBe(false);
    expect(small.fits(big)).toBe(true);
    expect(small.add(big).quantity(slots.indexOf('nvidia.com/gpu')).toString()).toBe('1');
    expect(small.quantity(10).isZero()).toBe(true);
  });

  it('saturates beyond 2^53-1 units and says so', () => {
    const slots = new ResourceSlots();
    const huge = ResourceVector.fromList(parseResourceList({ memory: '1E' }), slots);
    expect(huge.isExact()).toBe(false);
    expect(ResourceVector.fromList(parseResourceList({ memory: '1Pi' }), slots).fits(huge)).toBe(true);
    const edge = ResourceVector.zero(slots).setUnits(0, Number.MAX_SAFE_INTEGER);
    expect(edge.isExact()).toBe(true);
    expect(edge.addInPlace(ResourceVector.zero(slots).setUnits(0, 1)).isExact()).toBe(false);
    expect(() => ResourceVector.zero(slots).setUnits(0, 0.5)).toThrow(RangeError);
  });

  it('carries and borrows nano remainders exactly', () => {
    const slots = new ResourceSlots();
    const v = (o: Record<string, string>) => ResourceVector.fromList(parseResourceList(o), slots);
    const sum = v({ cpu: '0.7' }).addInPlace(v({ cpu: '0.6' }));
    expect(sum.quantity(0).toString()).toBe('1300m');
    expect(sum.units(0)).toBe(1);
    const diff = v({ cpu: '1' }).subInPlace(v({ cpu: '1500m' }));
    expect(diff.quantity(0).toString()).toBe('-500m');
    expect(diff.units(0)).toBe(-1);
    expect(v({}).fits(diff)).toBe(false);
    expect(v({ cpu: '1n' }).isZero()).toBe(false);
    expect(v({}).isZero()).toBe(true);
  });

  it('agrees with the exact lists on fits and shortfalls', () => {
    fc.assert(
      fc.property(listArb, listArb, (req, avail) => {
        const slots = new ResourceSlots();
        const r = ResourceVector.fromList(req, slots);
        const a = ResourceVector.fromList(avail, slots);
        expect(r.fits(a)).toBe(fits(req, avail));
        expect(r.firstMisfit(a) < 0).toBe(fits(req, avail));
        expect(r.shortfalls(a, slots).map(plain).sort(byKey)).toEqual(
          shortfalls(req, avail).map(plain).sort(byKey),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the exact lists on add, subtract and max', () => {
    fc.assert(
      fc.property(listArb, listArb, (x, y) => {
        const slots = new ResourceSlots();
        const vx = ResourceVector.fromList(x, slots);
        const vy = ResourceVector.fromList(y, slots);
        fc.pre(vx.isExact() && vy.isExact());
        const sum = vx.add(vy);
        const diff = vx.sub(vy);
        if (sum.isExact()) expect(resourcesEqual(sum.toList(slots), addResources(x, y))).toBe(true);
        if (diff.isExact())
          expect(resourcesEqual(diff.toList(slots), addResources(x, scaleResources(y, -1)))).toBe(true);
        const max = vx.clone().maxInPlace(vy);
        for (let s = 0; s < slots.size; s++) {
          const name = slots.nameOf(s);
          const zero = Quantity.zero();
          const expected = (x.get(name) ?? zero).max(y.get(name) ?? zero);
          expect(max.quantity(s).nanos).toBe(expected.nanos);
          expect(vx.cmpSlot(s, vy)).toBe((x.get(name) ?? zero).cmp(y.get(name) ?? zero));
        }
        // the operands are untouched
        expect(resourcesEqual(vx.toList(slots), x)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
