import { readdirSync, readFileSync } from 'node:fs';
import { KindRegistry, withValue } from '@nodewright/core/apis';
import { decodeManifests } from '@nodewright/core/manifests';
import { describe, expect, test } from 'vitest';
import { exampleGCENodeClass } from './examples.js';
import { gceNodeClassSchema, resolvedImageFamily } from './gcenodeclass.js';
import { gceNodeClassHash } from './hash.js';
import { imageFamilyOfAlias } from './images.js';
import { gceNodeClassKind } from './kind.js';

const parse = (value: unknown) => gceNodeClassSchema.parse(value);

describe('GCENodeClass', () => {
  test('the example parses and infers its image family from the alias', () => {
    const nodeClass = parse(exampleGCENodeClass());
    expect(resolvedImageFamily(nodeClass.spec)).toBe('ContainerOptimizedOS');
    expect(
      resolvedImageFamily(
        parse(withValue(exampleGCENodeClass(), ['spec', 'imageSelectorTerms'], [{ alias: 'ubuntu@latest' }]))
          .spec,
      ),
    ).toBe('Ubuntu');
  });

  test('unknown fields are refused, naming the field', () => {
    const result = gceNodeClassSchema.safeParse(withValue(exampleGCENodeClass(), ['spec', 'subnet'], 'x'));
    expect(result.error?.issues.map((i) => i.message).join()).toMatch(/subnet/);
  });

  test('the repository examples are valid GCENodeClasses', () => {
    const dir = new URL('../../../../examples/nodepools/gcp/', import.meta.url);
    const classes = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => decodeManifests(f, readFileSync(new URL(f, dir), 'utf8')).manifests)
      .filter((m) => m.kind === 'GCENodeClass')
      .map((m) => m.object);
    expect(classes.length).toBe(3);
    for (const nodeClass of classes)
      expect(gceNodeClassSchema.safeParse(nodeClass).error?.issues ?? []).toEqual([]);
  });

  test('the kind registers with the core kinds', () => {
    const registry = new KindRegistry([gceNodeClassKind]);
    expect(registry.get('karpenter.k8s.gcp/v1alpha1', 'GCENodeClass')).toBe(gceNodeClassKind);
    expect(gceNodeClassKind.namespaced).toBe(false);
  });

  test('aliases map to image families', () => {
    expect(imageFamilyOfAlias('cos@v20261101')).toBe('ContainerOptimizedOS');
    expect(imageFamilyOfAlias('al2023@latest')).toBeUndefined();
  });
});

describe('gceNodeClassHash', () => {
  test('changes with launch settings, not with how images are selected', () => {
    const base = parse(exampleGCENodeClass());
    const otherImages = parse(
      withValue(
        withValue(exampleGCENodeClass(), ['spec', 'imageSelectorTerms'], [{ family: 'cos-stable' }]),
        ['spec', 'imageFamily'],
        'Custom',
      ),
    );
    const otherAccount = parse(withValue(exampleGCENodeClass(), ['spec', 'serviceAccount'], 'default'));
    expect(gceNodeClassHash(otherImages)).toBe(gceNodeClassHash(base));
    expect(gceNodeClassHash(otherAccount)).not.toBe(gceNodeClassHash(base));
  });
});
