import { describe, expect, it } from 'vitest';
import { KindRegistry } from '../kind.js';
import { kubernetesKinds } from './kinds.js';

describe('kubernetesKinds', () => {
  const registry = new KindRegistry(kubernetesKinds);

  it.each([
    ['v1', 'Pod', true],
    ['v1', 'Node', false],
    ['v1', 'PersistentVolumeClaim', true],
    ['v1', 'PersistentVolume', false],
    ['apps/v1', 'DaemonSet', true],
    ['policy/v1', 'PodDisruptionBudget', true],
    ['storage.k8s.io/v1', 'StorageClass', false],
  ] as const)('registers %s %s (namespaced: %s) without a CRD', (apiVersion, kind, namespaced) => {
    const def = registry.get(apiVersion, kind);
    expect(def?.namespaced).toBe(namespaced);
    expect(def?.crd).toBeUndefined();
  });

  it('each schema accepts only its own kind', () => {
    for (const def of kubernetesKinds) {
      const other = kubernetesKinds.find((d) => d.kind !== def.kind)!;
      const result = def.schema.safeParse({
        apiVersion: other.apiVersion,
        kind: other.kind,
        metadata: { name: 'x' },
      });
      expect(result.success).toBe(false);
    }
  });
});
