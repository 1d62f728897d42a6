import { NodeClassNotReadyError } from '@nodewright/core/cloudprovider';
import { type ClusterPort, isNotFound, type ResourceType, resourceTypeOf } from '@nodewright/core/kube';
import { z } from 'zod';
import { type EC2NodeClass, ec2NodeClassKind, ec2NodeClassSchema } from '../apis/index.js';

/** The EC2NodeClass kind as the cluster port addresses it. */
export const EC2NodeClasses: ResourceType<EC2NodeClass> = resourceTypeOf<EC2NodeClass>(ec2NodeClassKind);

/** Reads EC2NodeClasses, with the schema's defaults applied (the API server's, for in-memory clusters). */
export class NodeClassReader {
  readonly #cluster: ClusterPort;

  constructor(cluster: ClusterPort) {
    this.#cluster = cluster;
  }

  /** The EC2NodeClass, or undefined when it does not exist. Invalid ones are NodeClassNotReady. */
  async find(name: string): Promise<EC2NodeClass | undefined> {
    let raw: EC2NodeClass;
    try {
      raw = await this.#cluster.get(EC2NodeClasses, { name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const parsed = ec2NodeClassSchema.safeParse(raw);
    if (!parsed.success) {
      throw new NodeClassNotReadyError(`EC2NodeClass ${name} is invalid: ${z.prettifyError(parsed.error)}`);
    }
    return parsed.data;
  }

  /**
   * The EC2NodeClass a launch may use: it exists, is not being deleted, and its Ready condition
   * is True. @throws NodeClassNotReadyError naming the NodeClass and the reason otherwise.
   */
  async ready(name: string): Promise<EC2NodeClass> {
    const nodeClass = await this.find(name);
    if (nodeClass === undefined) throw new NodeClassNotReadyError(`EC2NodeClass ${name} not found`);
    if (nodeClass.metadata.deletionTimestamp !== undefined) {
      throw new NodeClassNotReadyError(`EC2NodeClass ${name} is being deleted`);
    }
    const ready = nodeClass.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') {
      const why =
        ready === undefined
          ? 'has no Ready condition yet'
          : `is not Ready (${ready.reason ?? ready.status}${ready.message ? `: ${ready.message}` : ''})`;
      throw new NodeClassNotReadyError(`EC2NodeClass ${name} ${why}`);
    }
    return nodeClass;
  }
}
