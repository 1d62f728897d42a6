import { describe, expect, it } from 'vitest';
import { instanceTypeCatalogSchema } from '../apis/catalog/instance-type-catalog.js';
import { CatalogProviders } from './catalog-provider.js';
import { combineCatalogs } from './combine-catalogs.js';

const catalog = (name: string, types: string[]) =>
  instanceTypeCatalogSchema.parse({
    apiVersion: 'nodewright.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    metadata: { name },
    instanceTypes: types.map((t) => ({
      name: t,
      capacity: { cpu: '1', memory: '1Gi' },
      offerings: [{ zone: 'z', capacityType: 'on-demand', price: 0.1 }],
    })),
  });

describe('combineCatalogs', () => {
  it('concatenates the types of every catalog in order', () => {
    const { instanceTypes, problems } = combineCatalogs([catalog('a', ['x', 'y']), catalog('b', ['z'])]);
    expect(problems).toEqual([]);
    expect(instanceTypes.map((t) => t.name)).toEqual(['x', 'y', 'z']);
  });

  it('reports a type name defined twice against the later catalog and keeps the first', () => {
    const { instanceTypes, problems } = combineCatalogs([catalog('a', ['x']), catalog('b', ['w', 'x'])]);
    expect(instanceTypes.map((t) => t.name)).toEqual(['x', 'w']);
    expect(problems).toEqual([
      {
        source: 1,
        catalog: 'b',
        instanceType: 'x',
        path: 'instanceTypes[1].name',
        message: 'instance type x is also defined by InstanceTypeCatalog/a',
      },
    ]);
  });
});

describe('CatalogProviders', () => {
  const provider = (name: string) => ({
    name,
    description: `the ${name} catalog`,
    catalog: () => catalog(name, ['t']),
  });

  it('finds providers by name and lists the names sorted', async () => {
    const providers = new CatalogProviders([provider('kwok'), provider('aws')]);
    expect((await providers.get('kwok')?.catalog())?.metadata.name).toBe('kwok');
    expect(providers.get('gcp')).toBeUndefined();
    expect(providers.names()).toEqual(['aws', 'kwok']);
    expect(providers.all().map((p) => p.name)).toEqual(['aws', 'kwok']);
  });

  it('refuses two providers of the same name', () => {
    expect(() => new CatalogProviders([provider('kwok'), provider('kwok')])).toThrow(
      'catalog kwok is provided twice',
    );
  });
});

describe('combineCatalogs: well-known labels', () => {
  it("a label one catalog carries is DoesNotExist on the other catalog's types, and is reported", () => {
    const labelled = instanceTypeCatalogSchema.parse({
      ...catalog('gpus', []),
      instanceTypes: [
        {
          name: 'g',
          labels: { 'example.com/gpu': 'true' },
          capacity: { cpu: '1', memory: '1Gi' },
          offerings: [{ zone: 'z', capacityType: 'on-demand', price: 0.5 }],
        },
      ],
    });
    const { instanceTypes, wellKnownLabels } = combineCatalogs([catalog('plain', ['p']), labelled]);
    expect([...wellKnownLabels]).toEqual(['example.com/gpu']);
    expect(instanceTypes.map((t) => t.requirements.get('example.com/gpu')?.toString())).toEqual([
      'example.com/gpu DoesNotExist',
      'example.com/gpu In [true]',
    ]);
  });
});
