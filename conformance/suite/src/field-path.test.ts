import { describe, expect, it } from 'vitest';
import { canonicalFieldPath, schemaAt } from './field-path.js';

describe('canonicalFieldPath', () => {
  it('spells quoted, unquoted and dotted map keys alike', () => {
    const quoted = canonicalFieldPath('spec.kubelet.evictionHard["memory.available"]');
    expect(canonicalFieldPath('spec.kubelet.evictionHard[memory.available]')).toBe(quoted);
    expect(canonicalFieldPath('spec.kubelet.evictionHard.memory.available')).toBe(quoted);
    expect(quoted).toBe('spec.kubelet.evictionHard.memory.available');
  });

  it('keeps map keys holding slashes whole', () => {
    expect(canonicalFieldPath('spec.template.metadata.labels.karpenter.sh/capacity-type')).toBe(
      canonicalFieldPath('spec.template.metadata.labels["karpenter.sh/capacity-type"]'),
    );
    expect(canonicalFieldPath('spec.tags[""]')).toBe('spec.tags.');
  });

  it('keeps list indices apart from keys', () => {
    expect(canonicalFieldPath('spec.template.spec.requirements[0].key')).toBe(
      'spec.template.spec.requirements[0].key',
    );
    expect(canonicalFieldPath('spec.a[0]')).not.toBe(canonicalFieldPath('spec.a.b'));
  });

  it('ignores the leading dot of scale-subresource errors', () => {
    expect(canonicalFieldPath('.spec.replicas')).toBe('spec.replicas');
  });
});

describe('schemaAt', () => {
  const root = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          tags: { type: 'object', additionalProperties: { type: 'string', maxLength: 5 } },
          terms: { type: 'array', items: { type: 'object', properties: { id: { pattern: '^x$' } } } },
        },
      },
    },
  };

  it('walks properties, list items and map values', () => {
    expect(schemaAt(root, 'spec.terms[3].id')).toEqual({ pattern: '^x$' });
    expect(schemaAt(root, 'spec.tags["kubernetes.io/cluster/x"]')).toEqual({ type: 'string', maxLength: 5 });
  });

  it('is undefined for a field the schema lacks', () => {
    expect(schemaAt(root, 'spec.missing.deeper')).toBeUndefined();
  });
});
