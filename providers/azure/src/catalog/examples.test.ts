import { readdirSync, readFileSync } from 'node:fs';
import { type NodePool, nodePoolSchema, podSchema } from '@nodewright/core/apis';
import { instanceTypesFromCatalog } from '@nodewright/core/catalog';
import { decodeManifests } from '@nodewright/core/manifests';
import { solve } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import { azureCatalog } from './catalog.js';
import { azureCatalogProviders } from './catalog-providers.js';

const dir = new URL('../../../../examples/nodepools/azure/', import.meta.url);
const nodePools: NodePool[] = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((file) =>
    decodeManifests(file, readFileSync(new URL(file, dir), 'utf8'))
      .manifests.filter((m) => m.kind === 'NodePool')
      .map((m) => nodePoolSchema.parse(m.object)),
  );

/** A pod only this pool takes: selects it, tolerates its taints, asks for its extended resources. */
function podFor(nodePool: NodePool) {
  const extended = Object.keys(nodePool.spec.limits ?? {}).filter((r) => r.includes('/'));
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
        {
          name: 'app',
          resources: {
            requests: { cpu: '1', memory: '2Gi', ...Object.fromEntries(extended.map((r) => [r, '1'])) },
            ...(extended.length > 0 ? { limits: Object.fromEntries(extended.map((r) => [r, '1'])) } : {}),
          },
        },
      ],
    },
  });
}

describe('examples/nodepools/azure with --catalog azure', () => {
  const { instanceTypes } = instanceTypesFromCatalog(azureCatalog());
  const plan = (pool: NodePool) =>
    solve({
      pods: [podFor(pool)],
      existing: [],
      daemonSets: [],
      nodePools,
      instanceTypes: new Map(nodePools.map((n) => [n.metadata.name ?? '', instanceTypes])),
    });

  const pool = (name: string) => nodePools.find((n) => n.metadata.name === name)!;

  it('finds the example pools', () => {
    expect(nodePools.map((n) => n.metadata.name)).toEqual([
      'aks-arm64-batch',
      'aks-general-purpose',
      'aks-gpu',
    ]);
  });

  it('the arm64 batch pool plans spot Arm sizes only', () => {
    const result = plan(pool('aks-arm64-batch'));
    expect(result.unschedulable.map((u) => u.reason)).toEqual([]);
    const names = result.newClaims[0]!.instanceTypes.map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => /^Standard_D\d+p/.test(n))).toBe(true);
    // Spot only: the cheapest Arm size's spot price, a ninth of its on-demand one (0.077).
    expect(result.newClaims[0]!.price).toBe(0.0086);
  });

  it('the general-purpose pool plans spot D/E v5+ sizes, the cheapest first', () => {
    const result = plan(pool('aks-general-purpose'));
    expect(result.unschedulable.map((u) => u.reason)).toEqual([]);
    const claim = result.newClaims[0]!;
    expect(claim.nodePool).toBe('aks-general-purpose');
    const names = claim.instanceTypes.map((t) => t.name);
    expect(names.every((n) => /^Standard_[DE]\d+a?s_v[56]$/.test(n))).toBe(true);
    expect(names).not.toContain('Standard_F2s_v2');
    // The cheapest spot offering of a 2-vCPU x64 D/E size at eastus prices.
    expect(claim.price).toBe(0.0095);
  });

  it('the GPU pool plans on-demand NVIDIA sizes only', () => {
    const result = plan(pool('aks-gpu'));
    expect(result.unschedulable.map((u) => u.reason)).toEqual([]);
    const names = result.newClaims[0]!.instanceTypes.map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.startsWith('Standard_NC'))).toBe(true);
    expect(result.newClaims[0]!.price).toBeGreaterThan(0.5);
  });

  it('offers spot only where LowPriorityCapable, and every sku label on every size', () => {
    const catalog = azureCatalog();
    const b2s = catalog.instanceTypes.find((t) => t.name === 'Standard_B2s')!;
    expect(new Set(b2s.offerings.map((o) => o.capacityType))).toEqual(new Set(['on-demand']));
    const d2 = catalog.instanceTypes.find((t) => t.name === 'Standard_D2s_v5')!;
    expect(d2.labels).toMatchObject({
      'karpenter.azure.com/sku-family': 'D',
      'karpenter.azure.com/sku-series': 'Ds_v5',
      'karpenter.azure.com/sku-version': '5',
      'karpenter.azure.com/sku-cpu': '2',
      'karpenter.azure.com/sku-memory': '8192',
      'topology.kubernetes.io/region': 'eastus',
    });
    expect(d2.offerings.map((o) => o.zone)).toContain('eastus-2');
    expect(d2.capacity).toMatchObject({ cpu: '2', memory: '7577Mi', pods: '250' });
  });

  it('has a catalog per priced region, and refuses another', () => {
    expect(azureCatalogProviders.map((p) => p.name)).toEqual(['azure', 'azure:eastus', 'azure:westus2']);
    expect(() => azureCatalog({ region: 'mars' })).toThrow(/no prices for region mars/);
  });
});
