import type { Node } from '../../apis/kubernetes/node.js';
import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { isNotFound } from '../../kube/errors.js';
import { Nodes } from '../../kube/resource-types.js';
import { ConditionTypes, isConditionTrue } from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { objectRef } from '../../operator/runtime/logger.js';
import { Quantity } from '../../scheduling/quantity/quantity.js';
import { isTaint } from '../../scheduling/taints/tolerations.js';
import {
  type ClaimState,
  type ClaimStep,
  type StepOutcome,
  setClaimCondition,
  waitingFor,
} from './claim-step.js';

/** Taints the node lifecycle puts on every new node and removes once it is up (Karpenter's KnownEphemeralTaints). */
const KnownEphemeralTaints: readonly { key: string; effect: string }[] = [
  { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
  { key: 'node.cloudprovider.kubernetes.io/uninitialized', effect: 'NoSchedule' },
];

/** Why a registered Node is not initialized yet. */
export interface InitializationProblem {
  readonly reason:
    | 'NodeNotReady'
    | 'StartupTaintsExist'
    | 'KnownEphemeralTaintsExist'
    | 'ResourceNotRegistered';
  readonly message: string;
}

const describe = (t: { key: string; value?: string | undefined; effect: string }) =>
  `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;

/**
 * Why `node` does not count as initialized for `claim`, or undefined when it does: it is Ready,
 * no startup taint of the claim and no known ephemeral taint remains, and every resource the
 * claim requests is non-zero in the Node's allocatable (device plugins have registered).
 */
export function initializationProblem(node: Node, claim: NodeClaim): InitializationProblem | undefined {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') {
    return { reason: 'NodeNotReady', message: `Node status is ${ready?.status ?? 'unknown'}` };
  }
  const taints = node.spec.taints ?? [];
  for (const startup of claim.spec.startupTaints ?? []) {
    const left = taints.find((t) => isTaint(t, startup));
    if (left !== undefined)
      return { reason: 'StartupTaintsExist', message: `StartupTaint "${describe(left)}" still exists` };
  }
  for (const ephemeral of KnownEphemeralTaints) {
    const left = taints.find((t) => isTaint(t, ephemeral));
    if (left !== undefined) {
      return {
        reason: 'KnownEphemeralTaintsExist',
        message: `KnownEphemeralTaint "${describe(left)}" still exists`,
      };
    }
  }
  const allocatable = node.status?.allocatable ?? {};
  for (const [name, requested] of Object.entries(claim.spec.resources?.requests ?? {})) {
    if (Quantity.parse(requested).isZero()) continue;
    const have = allocatable[name];
    if (have === undefined || Quantity.parse(have).isZero()) {
      return {
        reason: 'ResourceNotRegistered',
        message: `Resource "${name}" was requested but not registered`,
      };
    }
  }
  return undefined;
}

/**
 * Initialization: once registered, waits until the Node is ready for pods (see
 * initializationProblem), labels it `karpenter.sh/initialized=true` and sets Initialized=True.
 */
export class InitializationStep implements ClaimStep {
  readonly name = 'initialization';
  readonly #deps: LifecycleDependencies;

  constructor(deps: LifecycleDependencies) {
    this.#deps = deps;
  }

  async run(state: ClaimState): Promise<StepOutcome> {
    const claim = state.claim;
    const now = this.#deps.clock.now();
    if (isConditionTrue(claim.status?.conditions, ConditionTypes.Initialized)) return {};
    const unknown = waitingFor(claim, ConditionTypes.Initialized, now);
    if (!isConditionTrue(claim.status?.conditions, ConditionTypes.Launched))
      return unknown('NotLaunched', 'Node not launched');
    const nodeName = claim.status?.nodeName;
    if (!isConditionTrue(claim.status?.conditions, ConditionTypes.Registered) || nodeName === undefined) {
      return unknown('NotRegistered', 'Node not registered with cluster');
    }
    let node = state.node;
    if (node === undefined) {
      try {
        node = await this.#deps.cluster.get(Nodes, { name: nodeName });
      } catch (err) {
        if (isNotFound(err)) return unknown('NodeNotFound', 'Node not registered with cluster');
        throw err;
      }
    }
    const problem = initializationProblem(node, claim);
    if (problem !== undefined) return unknown(problem.reason, problem.message);
    if (node.metadata.labels?.[Labels.Initialized] !== 'true') {
      state.node = await this.#deps.cluster.patch(
        Nodes,
        { name: nodeName },
        { metadata: { labels: { [Labels.Initialized]: 'true' } } },
      );
    }
    setClaimCondition(claim, { type: ConditionTypes.Initialized, status: 'True' }, now);
    state.context.logger.info(
      { NodeClaim: objectRef(claim), Node: { name: nodeName }, allocatable: node.status?.allocatable },
      'initialized nodeclaim',
    );
    return {};
  }
}
