import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ResourceType } from '@nodewright/core/kube';

/** One RBAC permission: `group/resource[/subresource] verb`, the core group spelt "". */
export type Permission = string;

/** Formats a permission; `group` '' is the core group. */
export function permission(group: string, resource: string, verb: string): Permission {
  return `${group}/${resource} ${verb}`;
}

/** The ClusterPort method -> the RBAC verb it sends, and whether it goes to /status. */
const PortVerbs: Readonly<Record<string, { verb: string; status: boolean }>> = {
  get: { verb: 'get', status: false },
  list: { verb: 'list', status: false },
  watch: { verb: 'watch', status: false },
  create: { verb: 'create', status: false },
  update: { verb: 'update', status: false },
  updateStatus: { verb: 'update', status: true },
  patch: { verb: 'patch', status: false },
  patchStatus: { verb: 'patch', status: true },
  // Server-side apply is a PATCH.
  apply: { verb: 'patch', status: false },
  applyStatus: { verb: 'patch', status: true },
  delete: { verb: 'delete', status: false },
};

/** A call of a ClusterPort method (or an informer registration) naming a ResourceType constant. */
const CallPattern =
  /\.(get|list|watch|create|update|updateStatus|patch|patchStatus|apply|applyStatus|delete)(?:<[^>()]*>)?\(\s*([A-Z][\w$]*)\s*[,)]/g;
const InformerPattern = /\b(?:watchSelf|watchMapped)(?:<[^>()]*>)?\(\s*([A-Z][\w$]*)\s*[,)]/g;
/** `['Node', Nodes]` entries of a kind -> type table whose types are all watched (state.cluster). */
const WatchedTablePattern = /\[\s*'[A-Z]\w*',\s*([A-Z][\w$]*)\s*\]/g;
/** A provider's NodeClass kinds: read (readiness) and watched (NodePool readiness) by core. */
const NodeClassTypesPattern = /nodeClassTypes:\s*\[\s*([A-Z][\w$]*)\s*\]/g;

/** Sources that never run in the controller against a real API server. */
const NotController = /\.test\.ts$|\/testing\/|\/memory\/|\/simulation\//;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (path.endsWith('.ts') && !NotController.test(path)) yield path;
  }
}

/** What the scan found: the permissions, and where each was seen (for failure messages). */
export interface CodePermissions {
  readonly permissions: ReadonlyMap<Permission, readonly string[]>;
  /** Identifiers used as a ResourceType that `types` does not know: the scan cannot judge them. */
  readonly unknownTypes: readonly string[];
}

/**
 * Scans the controller's sources (`dirs`, relative to `root`) for the Kubernetes calls they
 * make and returns the RBAC permissions those need. `types` maps each ResourceType constant's
 * name (as the sources spell it) to the type. Informer registrations need list and watch;
 * `evict` needs create on pods/eviction; ClusterPort calls map through PortVerbs.
 */
export function scanCodePermissions(
  root: string,
  dirs: readonly string[],
  types: Readonly<Record<string, ResourceType>>,
): CodePermissions {
  const found = new Map<Permission, string[]>();
  const unknown = new Set<string>();
  const add = (name: string, verb: string, status: boolean, where: string) => {
    const type = types[name];
    if (type === undefined) {
      unknown.add(`${name} (${where})`);
      return;
    }
    const group = type.apiVersion.includes('/') ? type.apiVersion.split('/')[0]! : '';
    const key = permission(group, status ? `${type.plural}/status` : type.plural, verb);
    found.set(key, [...(found.get(key) ?? []), where]);
  };
  for (const dir of dirs) {
    for (const file of sourceFiles(join(root, dir))) {
      const text = readFileSync(file, 'utf8');
      const where = relative(root, file);
      for (const m of text.matchAll(CallPattern)) {
        const port = PortVerbs[m[1]!]!;
        add(m[2]!, port.verb, port.status, where);
      }
      for (const pattern of [InformerPattern, WatchedTablePattern]) {
        for (const m of text.matchAll(pattern)) {
          add(m[1]!, 'list', false, where);
          add(m[1]!, 'watch', false, where);
        }
      }
      for (const m of text.matchAll(NodeClassTypesPattern)) {
        for (const verb of ['get', 'list', 'watch']) add(m[1]!, verb, false, where);
      }
      if (/\.evict\(/.test(text)) {
        const key = permission('', 'pods/eviction', 'create');
        found.set(key, [...(found.get(key) ?? []), where]);
      }
    }
  }
  return { permissions: found, unknownTypes: [...unknown].sort() };
}

/** The permissions an RBAC rule list grants, one per (group, resource, verb). */
export function grantedPermissions(
  rules: readonly { apiGroups?: string[]; resources?: string[]; verbs?: string[] }[],
): Set<Permission> {
  const out = new Set<Permission>();
  for (const rule of rules) {
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        for (const verb of rule.verbs ?? []) out.add(permission(group, resource, verb));
      }
    }
  }
  return out;
}
