import type { Node } from '../apis/kubernetes/node.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { CloudProvider } from '../cloudprovider/cloud-provider.js';
import type { KubeObject, ObjectKey } from '../kube/object.js';
import type { ClusterPort } from '../kube/port.js';
import type { ResourceType } from '../kube/resource-type.js';
import { NodeClaims, Nodes } from '../kube/resource-types.js';
import type { ControllerCache } from '../operator/runtime/controller-cache.js';
import type { InformerEvent } from '../operator/runtime/informer.js';

/** Whether this provider launches the claim's NodeClass (Karpenter's IsManaged). */
export function isManaged(claim: Pick<NodeClaim, 'spec'>, cloudProvider: CloudProvider): boolean {
  const ref = claim.spec.nodeClassRef;
  return cloudProvider.supportedNodeClasses().some((c) => c.group === ref.group && c.kind === ref.kind);
}

/** The Nodes (normally one) whose spec.providerID is the claim's instance. */
export function nodesForProviderID(nodes: readonly Node[], providerID: string | undefined): Node[] {
  if (providerID === undefined || providerID === '') return [];
  return nodes.filter((n) => n.spec.providerID === providerID);
}

/** The NodeClaim (normally one) whose status.providerID is the Node's. */
export function claimsForProviderID(
  claims: readonly NodeClaim[],
  providerID: string | undefined,
): NodeClaim[] {
  if (providerID === undefined || providerID === '') return [];
  return claims.filter((c) => c.status?.providerID === providerID);
}

/**
 * The objects of a kind that pass `filter`, from the watch cache when a controller watches the
 * kind, else listed from the API server. As controller-runtime's cached client reads: a
 * reconcile that finds objects this way costs no request and no parse of the whole kind, which
 * at thousands of Nodes per reconcile is most of the apiserver's load and the event loop's.
 * Eventually consistent; the watch event of whatever it missed brings the reconcile back.
 */
export async function listCachedOr<T extends KubeObject>(
  cluster: Pick<ClusterPort, 'list'>,
  cache: ControllerCache | undefined,
  type: ResourceType<T>,
  filter: (obj: T) => boolean,
): Promise<T[]> {
  if (cache?.has(type) === true) return cache.list(type, filter);
  return (await cluster.list(type)).items.filter(filter);
}

/**
 * The NodeClaim keys a Node change concerns: its owner NodeClaim, else the claims with its
 * providerID in the cache.
 */
export function claimKeysForNode(node: Node, cache: ControllerCache): ObjectKey[] {
  const owner = node.metadata.ownerReferences?.find(
    (o) => o.kind === 'NodeClaim' && o.apiVersion === NodeClaims.apiVersion,
  );
  if (owner !== undefined) return [{ name: owner.name }];
  if (!cache.has(NodeClaims)) return [];
  return claimsForProviderID(cache.list(NodeClaims), node.spec.providerID).flatMap((c) =>
    c.metadata.name === undefined ? [] : [{ name: c.metadata.name }],
  );
}

/** The Node keys a NodeClaim change concerns: its status.nodeName, else the cached Nodes with its providerID. */
export function nodeKeysForClaim(claim: NodeClaim, cache: ControllerCache): ObjectKey[] {
  if (claim.status?.nodeName !== undefined) return [{ name: claim.status.nodeName }];
  if (!cache.has(Nodes)) return [];
  return nodesForProviderID(cache.list(Nodes), claim.status?.providerID).map((n) => ({
    name: n.metadata.name,
  }));
}

/**
 * Whether a watch event changed more than status (or is not a modification): lets a controller
 * skip the events its own status writes cause, which would otherwise rerun a failing reconcile
 * at once instead of after its backoff.
 */
export function changedBeyondStatus(event: InformerEvent): boolean {
  if (event.type !== 'MODIFIED' || event.previous === undefined) return true;
  const strip = (o: KubeObject) => {
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = o.metadata;
    return JSON.stringify([meta, (o as { spec?: unknown }).spec]);
  };
  return strip(event.object) !== strip(event.previous);
}
