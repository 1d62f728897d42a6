import { randomUUID } from 'node:crypto';
import type { ArmError } from './errors.js';

/** What a finished async operation did: nothing more, or failed with an ARM error. */
type Outcome = { readonly ok: true } | { readonly ok: false; readonly error: ArmError };

interface Operation {
  pollsLeft: number;
  readonly finish: () => Outcome;
  outcome?: Outcome;
}

/**
 * ARM's asynchronous operations (the `Azure-AsyncOperation` URL): each answers `InProgress`
 * for a number of polls, then runs its finishing step once and reports `Succeeded`, or
 * `Failed` with the step's error. Nothing happens until the client polls, so a client that
 * does not poll never sees the resource finish.
 */
export class AsyncOperations {
  readonly #ops = new Map<string, Operation>();
  #polls = 0;

  constructor(private readonly pollsPerOperation: () => number) {}

  start(finish: () => Outcome): string {
    const id = randomUUID();
    this.#ops.set(id, { pollsLeft: this.pollsPerOperation(), finish });
    return id;
  }

  /** The operation's status document, advancing it by one poll. */
  poll(id: string): { status: string; error?: { code: string; message: string } } | undefined {
    const op = this.#ops.get(id);
    if (op === undefined) return undefined;
    this.#polls++;
    if (op.outcome === undefined) {
      if (op.pollsLeft > 0) {
        op.pollsLeft--;
        return { status: 'InProgress' };
      }
      op.outcome = op.finish();
    }
    return op.outcome.ok
      ? { status: 'Succeeded' }
      : { status: 'Failed', error: op.outcome.error.body().error };
  }

  /** Polls answered so far, so tests can see the client really polled. */
  get polls(): number {
    return this.#polls;
  }
}
