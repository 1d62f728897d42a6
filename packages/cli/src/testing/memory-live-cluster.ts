import { nodeClaimKind, nodePoolKind } from '@nodewright/core/apis';
import { FakeClock } from '@nodewright/core/clock';
import {
  ForbiddenError,
  type KubeObject,
  MemoryCluster,
  type ResourceType,
  resourceTypeOf,
  UnreachableError,
} from '@nodewright/core/kube';
import { kwokNodeClassKind } from '@nodewright/kwok';
import { parse } from 'yaml';
import { rbacResource } from '../live/describe-failure.js';
import type { ClusterConnector, LiveCluster } from '../live/live-cluster.js';

/** An in-memory API server serving the karpenter.sh and KWOK kinds, for the live read path. */
export function memoryCluster(): MemoryCluster {
  return new MemoryCluster({
    clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')),
    kinds: [resourceTypeOf(nodePoolKind), resourceTypeOf(nodeClaimKind), resourceTypeOf(kwokNodeClassKind)],
  });
}

/** Creates every object of a YAML stream (status included, as a controller would have set it). */
export async function createAll(
  cluster: MemoryCluster,
  yaml: string,
  types: readonly ResourceType[],
): Promise<void> {
  for (const doc of yaml.split(/^---$/m)) {
    const object = parse(doc) as KubeObject | null;
    if (object === null) continue;
    const type = types.find((t) => t.apiVersion === object.apiVersion && t.kind === object.kind);
    if (type === undefined) throw new Error(`no type for ${object.apiVersion}/${object.kind}`);
    const created = await cluster.create(type, object);
    const status = (object as { status?: unknown }).status;
    if (status !== undefined && type.statusSubresource)
      await cluster.patchStatus(
        type,
        { namespace: created.metadata.namespace, name: created.metadata.name! },
        { status } as never,
      );
  }
}

/**
 * A connector to `cluster` as context `name`, refusing to list the resources in `forbidden`
 * (`pods`, `nodepools.karpenter.sh`) as RBAC would, or unreachable altogether.
 */
export function memoryConnector(
  cluster: MemoryCluster,
  options: { readonly forbidden?: readonly string[]; readonly unreachable?: boolean } = {},
): ClusterConnector & { readonly targets: unknown[] } {
  const targets: unknown[] = [];
  const connect = async (target: unknown): Promise<LiveCluster> => {
    targets.push(target);
    const refuse = (type: ResourceType) => {
      if (options.unreachable === true)
        throw new UnreachableError('GET https://127.0.0.1:1/api/v1/pods: connection refused', undefined);
      const resource = rbacResource(type);
      if (options.forbidden?.includes(resource))
        throw new ForbiddenError(
          `${resource} is forbidden: User "viewer" cannot list resource "${type.plural}" at the cluster scope`,
        );
    };
    return {
      name: 'memory',
      server: 'https://127.0.0.1:1',
      get: async (type, key) => {
        refuse(type);
        return cluster.get(type, key);
      },
      list: async (type, opts) => {
        refuse(type);
        return cluster.list(type, opts);
      },
    };
  };
  return Object.assign(connect, { targets });
}
