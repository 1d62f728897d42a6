import { NodeClassNotReadyError } from '@nodewright/core/cloudprovider';
import { type ClusterPort, isNotFound, type ResourceType, resourceTypeOf } from '@nodewright/core/kube';
import { z } from 'zod';
import { type AKSNodeClass, aksNodeClassKind, aksNodeClassSchema } from '../apis/index.js';

/** The AKSNodeClass kind as the cluster port addresses it. */
export const AKSNodeClasses: ResourceType<AKSNodeClass> = resourceTypeOf<AKSNodeClass>(aksNodeClassKind);

/** Reads AKSNodeClasses with the schema's defaults applied. */
export class NodeClassReader {
  constructor(private readonly cluster: ClusterPort) {}

  /** The AKSNodeClass, or undefined when it does not exist. Invalid ones are NodeClassNotReady. */
  async find(name: string): Promise<AKSNodeClass | undefined> {
    let raw: AKSNodeClass;
    try {
      raw = await this.cluster.get(AKSNodeClasses, { name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const parsed = aksNodeClassSchema.safeParse(raw);
    if (!parsed.success) {
      throw new NodeClassNotReadyError(`AKSNodeClass ${name} is invalid: ${z.prettifyError(parsed.error)}`);
    }
    return parsed.data;
  }

  /**
   * The AKSNodeClass a launch may use: it exists, is not being deleted, and is Ready.
   * @throws NodeClassNotReadyError naming the NodeClass and why otherwise.
   */
  async ready(name: string): Promise<AKSNodeClass> {
    const nodeClass = await this.find(name);
    if (nodeClass === undefined) throw new NodeClassNotReadyError(`AKSNodeClass ${name} not found`);
    if (nodeClass.metadata.deletionTimestamp !== undefined) {
      throw new NodeClassNotReadyError(`AKSNodeClass ${name} is being deleted`);
    }
    const ready = nodeClass.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') {
      const why =
        ready === undefined
          ? 'has no Ready condition yet'
          : `is not Ready (${ready.reason ?? ready.status}${ready.message ? `: ${ready.message}` : ''})`;
      throw new NodeClassNotReadyError(`AKSNodeClass ${name} ${why}`);
    }
    return nodeClass;
  }
}
