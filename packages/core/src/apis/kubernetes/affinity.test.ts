import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { affinitySchema, podAffinityTermSchema } from './affinity.js';

const errorsOf = (schema: typeof affinitySchema | typeof podAffinityTermSchema, value: unknown) =>
  fieldErrors(schema.safeParse(value).error?.issues ?? []).map((e) => [e.path, e.message]);

describe('affinitySchema', () => {
  const affinity = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }] },
          { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] },
        ],
      },
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 50, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
      ],
    },
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        {
          labelSelector: { matchLabels: { app: 'cache' } },
          topologyKey: 'topology.kubernetes.io/zone',
          namespaces: ['data'],
        },
      ],
    },
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 100,
          podAffinityTerm: {
            labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
            namespaceSelector: {},
            topologyKey: 'kubernetes.io/hostname',
            matchLabelKeys: ['pod-template-hash'],
          },
        },
      ],
    },
  };

  it('accepts every kind of affinity', () => {
    expect(affinitySchema.parse(affinity)).toEqual(affinity);
  });

  it('checks weights from 1 to 100', () => {
    const bad = structuredClone(affinity);
    bad.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]!.weight = 0;
    bad.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]!.weight = 101;
    expect(errorsOf(affinitySchema, bad)).toEqual([
      ['nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight', 'must be at least 1'],
      ['podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight', 'must be at most 100'],
    ]);
  });

  it('reports nested expression errors at their paths', () => {
    const bad = structuredClone(affinity);
    bad.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]!
      .matchExpressions![0]!.operator = 'Like';
    expect(errorsOf(affinitySchema, bad)[0]?.[0]).toBe(
      'nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator',
    );
  });
});

describe('podAffinityTermSchema', () => {
  it('requires a topology key', () => {
    expect(errorsOf(podAffinityTermSchema, { labelSelector: {} })).toEqual([['topologyKey', 'is required']]);
    expect(errorsOf(podAffinityTermSchema, { labelSelector: {}, topologyKey: '' })).toEqual([
      ['topologyKey', 'must not be empty'],
    ]);
  });

  it('matchLabelKeys and mismatchLabelKeys need a selector, must not overlap, nor repeat selector keys', () => {
    expect(errorsOf(podAffinityTermSchema, { topologyKey: 'zone', matchLabelKeys: ['a'] })).toEqual([
      ['matchLabelKeys', 'must not be set when labelSelector is not set'],
    ]);
    expect(
      errorsOf(podAffinityTermSchema, {
        topologyKey: 'zone',
        labelSelector: { matchLabels: { app: 'web' } },
        matchLabelKeys: ['a', 'app'],
        mismatchLabelKeys: ['a'],
      }),
    ).toEqual([
      ['mismatchLabelKeys[0]', '"a" is also in matchLabelKeys; a key may be in only one of them'],
      ['matchLabelKeys[1]', '"app" is already in labelSelector; it must not be in matchLabelKeys too'],
    ]);
  });
});
