import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nodePoolSchema } from '../v1/nodepool.js';
import { closestName, editDistance } from './closest.js';
import { knownFieldsAt } from './schema-keys.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours', () => {
    expect(editDistance('requirements', 'requirments')).toBe(1);
    expect(editDistance('taints', 'tiants')).toBe(1);
    expect(editDistance('weight', 'height')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('closestName', () => {
  it('prefers a case-only difference, else the nearest within a third of the length', () => {
    expect(closestName('NodeClassRef', ['nodeClassRef', 'nodeClassRefs'])).toBe('nodeClassRef');
    expect(closestName('consolidationPolcy', ['consolidateAfter', 'consolidationPolicy'])).toBe(
      'consolidationPolicy',
    );
    expect(closestName('zone', ['weight', 'limits'])).toBeUndefined();
  });
});

describe('knownFieldsAt', () => {
  it('looks through optional, default, pipe, union and array to the object at the path', () => {
    const schema = z.strictObject({
      spec: z
        .strictObject({
          items: z.array(z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.number() })])),
        })
        .optional()
        .transform((x) => x),
    });
    expect(knownFieldsAt(schema, [])).toEqual(['spec']);
    expect(knownFieldsAt(schema, ['spec', 'items', 0]).sort()).toEqual(['a', 'b']);
    expect(knownFieldsAt(schema, ['nope'])).toEqual([]);
  });

  it("reaches a NodePool's disruption and template spec", () => {
    expect(knownFieldsAt(nodePoolSchema, ['spec', 'disruption'])).toContain('consolidationPolicy');
    expect(knownFieldsAt(nodePoolSchema, ['spec', 'template', 'spec'])).toContain('expireAfter');
  });
});
