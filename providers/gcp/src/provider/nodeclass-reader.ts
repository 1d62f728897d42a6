import type { ClusterPort, ResourceType } from '@nodewright/core/kube';
import { resourceTypeOf } from '@nodewright/core/kube';
import { NodeClassReader } from '@nodewright/core/lifecycle';
import { type GCENodeClass, gceNodeClassKind, gceNodeClassSchema } from '../apis/index.js';

/** The GCENodeClass kind as the cluster port addresses it. */
export const GCENodeClasses: ResourceType<GCENodeClass> = resourceTypeOf<GCENodeClass>(gceNodeClassKind);

/** Reads GCENodeClasses through the cluster port, parsed by their schema. */
export function gceNodeClassReader(cluster: ClusterPort): NodeClassReader<GCENodeClass> {
  return new NodeClassReader(cluster, GCENodeClasses, gceNodeClassSchema);
}
