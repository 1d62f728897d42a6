import { describe, expect, test } from 'vitest';
import { exampleNodePool, withValue } from './examples.js';
import { type NodePool, nodePoolSchema } from './nodepool.js';
import { NodePoolHashVersion, nodePoolTemplateHash } from './nodepool-hash.js';

const parse = (input: unknown): NodePool => nodePoolSchema.parse(input);
const base = () =>
  withValue(
    exampleNodePool(),
    ['spec', 'template', 'spec', 'taints'],
    [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'b', value: 'x', effect: 'NoExecute' },
    ],
  );
const hashOf = (input: unknown) => nodePoolTemplateHash(parse(input));

describe('nodePoolTemplateHash', () => {
  test('is deterministic and independent of key and taint order', () => {
    const reordered = withValue(
      base(),
      ['spec', 'template', 'spec', 'taints'],
      [
        { effect: 'NoExecute', value: 'x', key: 'b' },
        { effect: 'NoSchedule', key: 'a' },
      ],
    );
    const labels = withValue(reordered, ['spec', 'template', 'metadata', 'labels'], { z: '1', team: 'web' });
    const labelsReordered = withValue(base(), ['spec', 'template', 'metadata', 'labels'], {
      team: 'web',
      z: '1',
    });
    expect(hashOf(base())).toBe(hashOf(base()));
    expect(hashOf(reordered)).toBe(hashOf(base()));
    expect(hashOf(labels)).toBe(hashOf(labelsReordered));
  });

  test('ignores requirements, budgets, limits and weight', () => {
    let changed = withValue(
      base(),
      ['spec', 'template', 'spec', 'requirements'],
      [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }],
    );
    changed = withValue(changed, ['spec', 'disruption'], {
      budgets: [{ nodes: '0' }],
      consolidateAfter: '1h',
    });
    changed = withValue(changed, ['spec', 'limits'], { cpu: 10 });
    changed = withValue(changed, ['spec', 'weight'], 50);
    expect(hashOf(changed)).toBe(hashOf(base()));
  });

  test('an explicit default hashes like an unset one, an empty map like none', () => {
    expect(hashOf(withValue(base(), ['spec', 'template', 'spec', 'expireAfter'], '720h'))).toBe(
      hashOf(base()),
    );
    const noLabels = withValue(base(), ['spec', 'template', 'metadata'], undefined);
    expect(hashOf(withValue(noLabels, ['spec', 'template', 'metadata'], { labels: {} }))).toBe(
      hashOf(noLabels),
    );
  });

  test.each([
    ['a taint', ['spec', 'template', 'spec', 'taints', 0, 'effect'], 'PreferNoSchedule'],
    ['a startup taint', ['spec', 'template', 'spec', 'startupTaints'], [{ key: 's', effect: 'NoSchedule' }]],
    ['a label', ['spec', 'template', 'metadata', 'labels', 'team'], 'api'],
    ['an annotation', ['spec', 'template', 'metadata', 'annotations'], { note: 'x' }],
    ['the nodeClassRef', ['spec', 'template', 'spec', 'nodeClassRef', 'name'], 'other'],
    ['expireAfter', ['spec', 'template', 'spec', 'expireAfter'], 'Never'],
    ['terminationGracePeriod', ['spec', 'template', 'spec', 'terminationGracePeriod'], '1h'],
  ] as const)('changes with %s', (_, path, value) => {
    expect(hashOf(withValue(base(), path, value))).not.toBe(hashOf(base()));
  });

  test("has its own version, distinct from Karpenter's", () => {
    expect(NodePoolHashVersion).not.toBe('v3');
  });
});
