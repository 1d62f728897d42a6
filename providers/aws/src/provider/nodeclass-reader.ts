import type { ClusterPort, ResourceType } from '@nodewright/core/kube';
import { resourceTypeOf } from '@nodewright/core/kube';
import { NodeClassReader as KindReader } from '@nodewright/core/lifecycle';
import { type EC2NodeClass, ec2NodeClassKind, ec2NodeClassSchema } from '../apis/index.js';

/** The EC2NodeClass kind as the cluster port addresses it. */
export const EC2NodeClasses: ResourceType<EC2NodeClass> = resourceTypeOf<EC2NodeClass>(ec2NodeClassKind);

/** Reads EC2NodeClasses, with the schema's defaults applied (the API server's, for in-memory clusters). */
export class NodeClassReader extends KindReader<EC2NodeClass> {
  constructor(cluster: ClusterPort) {
    super(cluster, EC2NodeClasses, ec2NodeClassSchema);
  }
}
