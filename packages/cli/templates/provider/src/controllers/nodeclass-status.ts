import type { Clock } from '@nodewright/core/clock';
import {
  type ClusterPort,
  formatTime,
  isNotFound,
  type MergePatch,
  type ObjectKey,
} from '@nodewright/core/kube';
import { type Controller, type ReconcileResult, watchSelf } from '@nodewright/core/operator';
import { type NodeClass, NodeClasses, nodeClassSchema } from '../apis/nodeclass.js';

type Condition = NonNullable<NonNullable<NodeClass['status']>['conditions']>[number];

/** What the Ready condition should say of a NodeClass, from its (raw) object. */
export function readyConditionFor(raw: unknown): Pick<Condition, 'status' | 'reason' | 'message'> {
  const parsed = nodeClassSchema.safeParse(raw);
  if (parsed.success) return { status: 'True', reason: 'Ready', message: '' };
  const first = parsed.error.issues[0];
  const message = `${first?.path.join('.') ?? ''}: ${first?.message ?? 'invalid'}`;
  return { status: 'False', reason: 'InvalidSpec', message: message.slice(0, 1024) };
}

/**
 * `acmenodeclass.status`: keeps each NodeClass's Ready condition, which core reads before it
 * provisions for a NodePool. Here a class is Ready when its spec is valid; a real cloud would
 * also resolve what the spec names (the image exists, the subnets are there) and say what is
 * missing in the message. Writes only when the condition changes, so its own writes settle.
 */
export class NodeClassStatusController implements Controller {
  readonly name = 'acmenodeclass.status';
  readonly watches = [watchSelf(NodeClasses)];
  readonly #cluster: ClusterPort;
  readonly #clock: Clock;

  constructor(options: { readonly cluster: ClusterPort; readonly clock: Clock }) {
    this.#cluster = options.cluster;
    this.#clock = options.clock;
  }

  async reconcile(key: ObjectKey): Promise<ReconcileResult | undefined> {
    let nodeClass: NodeClass;
    try {
      nodeClass = await this.#cluster.get(NodeClasses, { name: key.name });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    const want = readyConditionFor(nodeClass);
    const conditions = nodeClass.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'Ready');
    const generation = nodeClass.metadata.generation;
    if (
      current?.status === want.status &&
      current.reason === want.reason &&
      current.message === want.message &&
      current.observedGeneration === generation
    ) {
      return undefined;
    }
    const ready: Condition = {
      type: 'Ready',
      ...want,
      lastTransitionTime:
        current?.status === want.status ? current.lastTransitionTime : formatTime(this.#clock.now()),
      ...(generation === undefined ? {} : { observedGeneration: generation }),
    };
    const patch = { status: { conditions: [...conditions.filter((c) => c.type !== 'Ready'), ready] } };
    await this.#cluster.patchStatus(NodeClasses, { name: key.name }, patch as unknown as MergePatch);
    return undefined;
  }
}
