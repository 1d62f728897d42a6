import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import {
  nodeSelectorRequirementSchema,
  nodeSelectorSchema,
  nodeSelectorTermSchema,
} from './node-selector.js';

const errorsOf = (schema: { safeParse(v: unknown): { error?: { issues: unknown[] } } }, value: unknown) =>
  fieldErrors((schema.safeParse(value).error?.issues ?? []) as Parameters<typeof fieldErrors>[0]);

describe('nodeSelectorRequirementSchema', () => {
  it.each([
    { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] },
    { key: 'a', operator: 'NotIn', values: ['x', 'y'] },
    { key: 'a', operator: 'Exists' },
    { key: 'a', operator: 'DoesNotExist', values: [] },
    { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: ['4'] },
    { key: 'a', operator: 'Lt', values: ['-3'] },
  ])('accepts %j', (req) => {
    expect(nodeSelectorRequirementSchema.safeParse(req).success).toBe(true);
  });

  it.each([
    [{ key: 'a', operator: 'In', values: [] }, 'must have at least one value for operator In'],
    [{ key: 'a', operator: 'Exists', values: ['x'] }, 'must be empty for operator Exists'],
    [{ key: 'a', operator: 'Gt', values: ['1', '2'] }, 'must have exactly one integer value for operator Gt'],
    [{ key: 'a', operator: 'Lt', values: ['1.5'] }, 'must have exactly one integer value for operator Lt'],
  ])('rejects %j', (req, message) => {
    expect(errorsOf(nodeSelectorRequirementSchema, req)).toEqual([
      { path: 'values', segments: ['values'], message },
    ]);
  });

  it('names the operators it accepts', () => {
    expect(
      errorsOf(nodeSelectorRequirementSchema, { key: 'a', operator: 'Gte', values: ['1'] })[0]?.message,
    ).toBe('must be one of In, NotIn, Exists, DoesNotExist, Gt, Lt');
  });
});

describe('nodeSelectorTermSchema matchFields', () => {
  it('accepts metadata.name In one value', () => {
    expect(
      nodeSelectorTermSchema.safeParse({
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }],
      }).success,
    ).toBe(true);
  });

  it('rejects other fields, operators and value counts', () => {
    const errors = errorsOf(nodeSelectorTermSchema, {
      matchFields: [
        { key: 'spec.providerID', operator: 'In', values: ['x'] },
        { key: 'metadata.name', operator: 'Exists', values: ['x'] },
        { key: 'metadata.name', operator: 'In', values: ['x', 'y'] },
      ],
    });
    expect(errors.map((e) => [e.path, e.message])).toEqual([
      ['matchFields[0].key', 'must be metadata.name, the only field nodes can be selected by'],
      ['matchFields[1].operator', 'must be In or NotIn for matchFields'],
      ['matchFields[2].values', 'must have exactly one value for matchFields'],
    ]);
  });
});

describe('nodeSelectorSchema', () => {
  it('needs at least one term', () => {
    expect(errorsOf(nodeSelectorSchema, { nodeSelectorTerms: [] })[0]).toMatchObject({
      path: 'nodeSelectorTerms',
      message: 'must have at least one term',
    });
  });
});
