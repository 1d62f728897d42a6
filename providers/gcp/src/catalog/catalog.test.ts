import { readdirSync, readFileSync } from 'node:fs';
import { type NodePool, nodePoolSchema, podSchema } from '@nodewright/core/apis';
import { instanceTypesFromCatalog } from '@nodewright/core/catalog';
import { decodeManifests } from '@nodewright/core/manifests';
import { solve } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import { GcpLabels, GcpWellKnownLabels } from '../instancetype/labels.js';
import { StaticComponentPrices } from '../pricing/static-prices.js';
import { gcpCatalog } from './catalog.js';
import { GcpCatalogRegions, gcpCatalogProviders } from './catalog-providers.js';

const dir = new URL('../../../../examples/nodepools/gcp/', import.meta.url);
const nodePools: NodePool[] = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((file) =>
    decodeManifests(file, readFileSync(new URL(file, dir), 'utf8'))
      .manifests.filter((m) => m.kind === 'NodePool')
      .map((m) => nodePoolSchema.parse(m.object)),
  );

/** A pod only this NodePool takes: selects it by name, tolerates its taints, asks for its limited extended resources. */
function podFor(nodePool: NodePool) {
  const extended = Object.keys(nodePool.spec.limits ?? {}).filter((r) => r.includes('/'));
  const ext = Object.fromEntries(extended.map((r) => [r, '1']));
  return podSchema.parse({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `needs-${nodePool.metadata.name}`, namespace: 'default' },
    spec: {
      nodeSelector: { 'karpenter.sh/nodepool': nodePool.metadata.name },
      tolerations: (nodePool.spec.template.spec.taints ?? []).map((t) => ({
        key: t.key,
        operator: 'Exists',
        effect: t.effect,
      })),
      containers: [
        { name: 'app', resources: { requests: { cpu: '1', memory: '2Gi', ...ext }, limits: ext } },
      ],
    },
  });
}

describe('the offline GCP catalog', () => {
  const catalog = gcpCatalog();
  const { instanceTypes, problems } = instanceTypesFromCatalog(catalog);

  it('is a valid catalog of priced types in us-central1 and us-east1', () => {
    expect(problems).toEqual([]);
    expect(instanceTypes.length).toBeGreaterThan(190);
    expect(catalog.wellKnownLabels).toEqual([...GcpWellKnownLabels]);
    expect(gcpCatalogProviders.map((p) => p.name)).toEqual(['gcp', 'gcp:us-central1', 'gcp:us-east1']);
    expect([...GcpCatalogRegions]).toEqual(Object.keys(StaticComponentPrices));
    const east = gcpCatalog({ region: 'us-east1' });
    expect(new Set(east.instanceTypes.flatMap((t) => t.offerings.map((o) => o.zone)))).toEqual(
      new Set(['us-east1-b', 'us-east1-c', 'us-east1-d']),
    );
    expect(() => gcpCatalog({ region: 'mars-north1' })).toThrow(/no prices for region mars-north1/);
  });

  it('labels n2-standard-8 and g2-standard-24 as GKE does, priced per vCPU, GiB and GPU', () => {
    const n2 = catalog.instanceTypes.find((t) => t.name === 'n2-standard-8')!;
    expect(n2.labels).toMatchObject({
      [GcpLabels.InstanceFamily]: 'n2',
      [GcpLabels.InstanceShape]: 'standard',
      [GcpLabels.InstanceSize]: '8',
      [GcpLabels.InstanceGeneration]: '2',
      [GcpLabels.InstanceCpu]: '8',
      [GcpLabels.InstanceMemory]: '32768',
      'topology.kubernetes.io/region': 'us-central1',
    });
    expect(n2.offerings.find((o) => o.capacityType === 'on-demand')?.price).toBe(0.388472);
    const g2 = catalog.instanceTypes.find((t) => t.name === 'g2-standard-24')!;
    expect(g2.labels).toMatchObject({
      [GcpLabels.InstanceGpuName]: 'nvidia-l4',
      [GcpLabels.InstanceGpuCount]: '2',
    });
    expect(g2.capacity['nvidia.com/gpu']).toBe('2');
  });

  for (const nodePool of nodePools) {
    it(`plans a pod that needs NodePool ${nodePool.metadata.name} of examples/nodepools/gcp`, () => {
      const result = solve({
        pods: [podFor(nodePool)],
        existing: [],
        daemonSets: [],
        nodePools,
        instanceTypes: new Map(nodePools.map((n) => [n.metadata.name ?? '', instanceTypes])),
      });
      expect(result.unschedulable.map((u) => u.reason)).toEqual([]);
      expect(result.newClaims.map((c) => c.nodePool)).toEqual([nodePool.metadata.name]);
      expect(result.newClaims[0]?.price).toBeGreaterThan(0);
    });
  }
});
