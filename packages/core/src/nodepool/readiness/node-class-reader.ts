import { z } from 'zod';
import { NodeClassNotReadyError } from '../../cloudprovider/errors.js';
import { isNotFound } from '../../kube/errors.js';
import type { ClusterPort } from '../../kube/port.js';
import type { ResourceType } from '../../kube/resource-type.js';

/** The parts of a NodeClass a launch checks: its deletion and its Ready condition. */
interface NodeClassLike {
  readonly metadata: { readonly deletionTimestamp?: string | undefined };
  readonly status?:
    | {
        readonly conditions?:
          | readonly {
              type: string;
              status: string;
              reason?: string | undefined;
              message?: string | undefined;
            }[]
          | undefined;
      }
    | undefined;
}

/**
 * Reads one NodeClass kind through the cluster port, parsed by its schema (so defaults apply as
 * the API server's would, for in-memory clusters). What a provider's create and getInstanceTypes
 * read their NodeClass with.
 */
export class NodeClassReader<T extends NodeClassLike> {
  readonly #cluster: ClusterPort;
  readonly #type: ResourceType<T>;
  readonly #schema: z.ZodType<T>;

  constructor(cluster: ClusterPort, type: ResourceType<T>, schema: z.ZodType<T>) {
    this.#cluster = cluster;
    this.#type = type;
    this.#schema = schema;
  }

  /** The NodeClass, or undefined when it does not exist. Invalid ones are NodeClassNotReady. */
  async find(name: string): Promise<T | undefined> {
    let raw: T;
    try {
      raw = await this.#cluster.get(this.#type, { name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const parsed = this.#schema.safeParse(raw);
    if (!parsed.success) {
      throw new NodeClassNotReadyError(
        `${this.#type.kind} ${name} is invalid: ${z.prettifyError(parsed.error)}`,
      );
    }
    return parsed.data;
  }

  /**
   * The NodeClass a launch may use: it exists, is not being deleted, and its Ready condition is
   * True. @throws NodeClassNotReadyError naming the NodeClass and the reason otherwise.
   */
  async ready(name: string): Promise<T> {
    const kind = this.#type.kind;
    const nodeClass = await this.find(name);
    if (nodeClass === undefined) throw new NodeClassNotReadyError(`${kind} ${name} not found`);
    if (nodeClass.metadata.deletionTimestamp !== undefined) {
      throw new NodeClassNotReadyError(`${kind} ${name} is being deleted`);
    }
    const ready = nodeClass.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') {
      const why =
        ready === undefined
          ? 'has no Ready condition yet'
          : `is not Ready (${ready.reason ?? ready.status}${ready.message ? `: ${ready.message}` : ''})`;
      throw new NodeClassNotReadyError(`${kind} ${name} ${why}`);
    }
    return nodeClass;
  }
}
