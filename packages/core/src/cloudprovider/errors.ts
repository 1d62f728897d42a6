/**
 * Typed errors a CloudProvider returns. Core reacts to each differently (see the provider
 * README), so providers must map their cloud's errors onto exactly these.
 */

/** The instance behind a NodeClaim no longer exists. Delete returns it once termination is done. */
export class NodeClaimNotFoundError extends Error {
  override readonly name = 'NodeClaimNotFoundError';
}

/**
 * No offering the NodeClaim allows could be launched for lack of capacity. The provider has
 * already marked the failing offerings unavailable; core deletes the NodeClaim so the pods are
 * scheduled again against what is left.
 */
export class InsufficientCapacityError extends Error {
  override readonly name = 'InsufficientCapacityError';
  /** `capacityType:instanceType:zone` keys the cloud refused, for events and logs. */
  readonly offerings: readonly string[];

  constructor(message: string, offerings: readonly string[] = []) {
    super(message);
    this.offerings = offerings;
  }
}

/** The NodeClass the NodeClaim references is missing or not Ready; nothing was launched. */
export class NodeClassNotReadyError extends Error {
  override readonly name = 'NodeClassNotReadyError';
}

/**
 * A launch failed for a reason the user should see on the NodeClaim's `Launched` condition;
 * core keeps the NodeClaim and retries.
 */
export class CreateError extends Error {
  override readonly name = 'CreateError';
  readonly conditionReason: string;
  readonly conditionMessage: string;

  constructor(conditionReason: string, conditionMessage: string, options?: { cause?: unknown }) {
    super(`${conditionReason}: ${conditionMessage}`, options);
    this.conditionReason = conditionReason;
    this.conditionMessage = conditionMessage;
  }
}

export function isNodeClaimNotFound(err: unknown): err is NodeClaimNotFoundError {
  return err instanceof NodeClaimNotFoundError;
}

export function isInsufficientCapacity(err: unknown): err is InsufficientCapacityError {
  return err instanceof InsufficientCapacityError;
}

export function isNodeClassNotReady(err: unknown): err is NodeClassNotReadyError {
  return err instanceof NodeClassNotReadyError;
}

export function isCreateError(err: unknown): err is CreateError {
  return err instanceof CreateError;
}

/** Rethrows anything but NodeClaimNotFound, so "already gone" counts as success. */
export function ignoreNodeClaimNotFound(err: unknown): void {
  if (!isNodeClaimNotFound(err)) throw err;
}

export function ignoreInsufficientCapacity(err: unknown): void {
  if (!isInsufficientCapacity(err)) throw err;
}

export function ignoreNodeClassNotReady(err: unknown): void {
  if (!isNodeClassNotReady(err)) throw err;
}
