import { groupOf, isKubeError, type ResourceType } from '@nodewright/core/kube';
import { ClusterAccessError, type LiveCluster } from './live-cluster.js';

/** The resource as RBAC names it: `pods`, `nodepools.karpenter.sh`. */
export function rbacResource(type: Pick<ResourceType, 'apiVersion' | 'plural'>): string {
  const group = groupOf(type);
  return group === '' ? type.plural : `${type.plural}.${group}`;
}

/**
 * A failed read in words a user acts on: which verb on which resource was refused (and what to
 * grant), that the server did not answer, or that the credentials were refused. Anything that is
 * not a KubeError is a bug and is rethrown.
 */
export function describeReadFailure(
  error: unknown,
  verb: 'get' | 'list',
  type: Pick<ResourceType, 'apiVersion' | 'plural'>,
  cluster: Pick<LiveCluster, 'name' | 'server'>,
): ClusterAccessError {
  if (error instanceof ClusterAccessError) return error;
  if (!isKubeError(error)) throw error;
  const resource = rbacResource(type);
  if (error.code === 403)
    return new ClusterAccessError(
      `forbidden: cannot ${verb} ${resource} in context ${cluster.name}: ${error.message}; grant ${verb} on ${resource} (see "RBAC" in docs/cli.md)`,
    );
  if (error.code === 401)
    return new ClusterAccessError(
      `unauthorized: ${cluster.server} refused the credentials of context ${cluster.name}: ${error.message}`,
    );
  if (error.name === 'UnreachableError')
    return new ClusterAccessError(`cannot reach the API server of context ${cluster.name}: ${error.message}`);
  if (error.code === 404)
    return new ClusterAccessError(`${resource} is not served by ${cluster.server}: ${error.message}`);
  return new ClusterAccessError(`cannot ${verb} ${resource} in context ${cluster.name}: ${error.message}`);
}
