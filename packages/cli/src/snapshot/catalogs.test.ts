import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogProviders } from '@nodewright/core/catalog';
import { formatManifestError, nodeManifestFs } from '@nodewright/core/manifests';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliServices } from '../compose.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { catalogInstanceTypes, readCatalogOptions } from './catalogs.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodewright-catalogs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const catalog = (name: string, type: string) => ({
  apiVersion: 'nodewright.dev/v1alpha1' as const,
  kind: 'InstanceTypeCatalog' as const,
  metadata: { name },
  instanceTypes: [
    {
      name: type,
      labels: {},
      capacity: { cpu: '2', memory: '4Gi' },
      offerings: [{ zone: 'z', capacityType: 'spot' as const, price: 0.05, available: true }],
    },
  ],
});

const reader = () => ({
  providers: new CatalogProviders([
    { name: 'demo', description: 'a demo catalog', catalog: () => catalog('demo', 'd-2x') },
  ]),
  registry: createCliServices(InTreeProviders).registry,
  fs: nodeManifestFs,
  cwd: dir,
});

describe('readCatalogOptions', () => {
  it('takes a provider name first, else reads a file', async () => {
    await writeFile(
      join(dir, 'mine.yaml'),
      `apiVersion: nodewright.dev/v1alpha1
kind: InstanceTypeCatalog
metadata: {name: mine}
instanceTypes:
  - name: m-2x
    capacity: {cpu: "2", memory: 8Gi}
    offerings: [{zone: z, capacityType: on-demand, price: 0.1}]
`,
    );
    const { catalogs, errors } = await readCatalogOptions(['demo', 'mine.yaml'], reader());
    expect(errors).toEqual([]);
    expect(catalogs.map((c) => [c.file, c.catalog.metadata.name])).toEqual([
      ['<catalog demo>', 'demo'],
      ['mine.yaml', 'mine'],
    ]);
    expect(catalogInstanceTypes(catalogs).instanceTypes.map((t) => t.name)).toEqual(['d-2x', 'm-2x']);
  });

  it('a bare word that is neither a catalog nor a file lists the known names', async () => {
    const { errors } = await readCatalogOptions(['kwokk'], reader());
    expect(errors.map(formatManifestError)).toEqual([
      'kwokk: no catalog is named kwokk (known: demo) and no such file can be read',
    ]);
  });

  it('an unreadable path is reported as such', async () => {
    const { errors } = await readCatalogOptions(['missing/types.yaml'], reader());
    expect(errors).toHaveLength(1);
    expect(errors[0]?.file).toBe('missing/types.yaml');
    expect(errors[0]?.message).not.toContain('no catalog is named');
  });

  it('other kinds in a catalog file are errors; invalid catalogs report their fields', async () => {
    await writeFile(
      join(dir, 'mixed.yaml'),
      `apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: nodewright.dev/v1alpha1
kind: InstanceTypeCatalog
metadata: {name: bad}
instanceTypes:
  - name: b-1x
    capacity: {cpu: "1"}
    offerings: [{zone: z, capacityType: spot, price: 0.1}]
`,
    );
    const { catalogs, errors } = await readCatalogOptions(['mixed.yaml'], reader());
    expect(catalogs).toEqual([]);
    expect(errors.map(formatManifestError)).toEqual([
      'mixed.yaml: InstanceTypeCatalog/bad: instanceTypes[0].capacity.memory: is required (line 10)',
      'mixed.yaml: Node/n1: kind: a --catalog file holds only InstanceTypeCatalog objects; give other objects with -f (line 1)',
    ]);
  });
});
