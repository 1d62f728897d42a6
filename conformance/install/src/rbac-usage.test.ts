import { readFileSync } from 'node:fs';
import * as aws from '@nodewright/aws';
import * as azure from '@nodewright/azure';
import type { ResourceType } from '@nodewright/core/kube';
import * as kube from '@nodewright/core/kube';
import * as lifecycle from '@nodewright/core/lifecycle';
import { decodeManifests } from '@nodewright/core/manifests';
import * as operator from '@nodewright/core/operator';
import * as gcp from '@nodewright/gcp';
import * as kwok from '@nodewright/kwok';
import { describe, expect, it } from 'vitest';
import { grantedPermissions, type Permission, permission, scanCodePermissions } from './code-permissions.js';
import { ChartProviders, repoRoot } from './helm.js';
import { rbacManifestPath } from './rbac-manifests.js';

// The chart's RBAC must grant exactly what the controller's code calls: a missing permission
// fails in production with a 403, an unused one is privilege nobody needs. The sources of core
// and of the chart's provider are scanned for ClusterPort calls and informer registrations;
// deploy/rbac/<provider>.yaml (the chart rendered, kept in sync by chart.integration.test.ts)
// must grant that set and nothing else. rbac.integration.test.ts checks the same role on a real
// API server, running the controller.

/** Every ResourceType a package exports, by its exported name. */
function typesOf(...modules: Readonly<Record<string, unknown>>[]): Record<string, ResourceType> {
  const out: Record<string, ResourceType> = {};
  for (const mod of modules) {
    for (const [name, value] of Object.entries(mod)) {
      const candidate = value as Partial<ResourceType> | undefined;
      if (typeof candidate?.plural === 'string' && typeof candidate.apiVersion === 'string') {
        out[name] = candidate as ResourceType;
      }
    }
  }
  return out;
}

const types = typesOf(kube, lifecycle, operator, kwok, aws, azure, gcp);
// Names the sources give a ResourceType locally (a narrower type parameter, same kind).
types.KwokNodes = kube.Nodes;

/**
 * Used by a code path the chart turns off: `--install-crds=true` server-side applies the CRDs;
 * the chart runs `--install-crds=false` (the nodewright-crd chart owns them).
 */
const NotUnderTheChart: readonly Permission[] = [
  permission('apiextensions.k8s.io', 'customresourcedefinitions', 'patch'),
];

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
}

function rbacOf(provider: string): { cluster: Rule[]; namespaced: Rule[] } {
  const path = rbacManifestPath(provider);
  const { manifests, errors } = decodeManifests(path, readFileSync(path, 'utf8'));
  expect(errors).toEqual([]);
  const rules = (kind: string) =>
    manifests.filter((m) => m.kind === kind).flatMap((m) => (m.object as { rules: Rule[] }).rules);
  return { cluster: rules('ClusterRole'), namespaced: rules('Role') };
}

describe.each(ChartProviders)('the %s RBAC', (provider) => {
  const scan = scanCodePermissions(repoRoot, ['packages/core/src', `providers/${provider}/src`], types);
  const used = new Set([...scan.permissions.keys()].filter((p) => !NotUnderTheChart.includes(p)));
  const rbac = rbacOf(provider);
  const granted = grantedPermissions([...rbac.cluster, ...rbac.namespaced]);

  it('names only ResourceTypes the scan can resolve', () => {
    expect(scan.unknownTypes).toEqual([]);
    // A scan that finds almost nothing would pass the comparisons below vacuously.
    expect(used.size).toBeGreaterThan(30);
  });

  it('grants every permission the code uses', () => {
    const missing = [...used].filter((p) => !granted.has(p));
    expect(
      missing.map((p) => `${p} (used in ${[...new Set(scan.permissions.get(p))].join(', ')})`),
      'missing from charts/nodewright/templates/rbac.yaml',
    ).toEqual([]);
  });

  it('grants no permission the code does not use', () => {
    expect([...granted].filter((p) => !used.has(p)).sort(), 'granted but unused').toEqual([]);
  });

  it('keeps the namespaced Role to the leader election Lease', () => {
    expect([...grantedPermissions(rbac.namespaced)].sort()).toEqual([
      'coordination.k8s.io/leases create',
      'coordination.k8s.io/leases get',
      'coordination.k8s.io/leases update',
    ]);
  });
});

describe('the scan', () => {
  it('finds a permission named in a source file and maps subresources and informers', () => {
    const scan = scanCodePermissions(repoRoot, ['packages/core/src'], types);
    expect(scan.permissions.get('karpenter.sh/nodeclaims/status update')?.length).toBeGreaterThan(0);
    expect(scan.permissions.get('/pods watch')?.length).toBeGreaterThan(0);
    expect(scan.permissions.get('/pods/eviction create')).toBeDefined();
    // A permission no code uses is not invented.
    expect(scan.permissions.has('/secrets get')).toBe(false);
  });
});
