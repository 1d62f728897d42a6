import type { Clock } from '../../../clock/clock.js';

/** Upstream's MultiNodeConsolidationTimeoutDuration: one minute. */
export const MultiNodeConsolidationTimeoutMs = 60_000;
/** Upstream's SingleNodeConsolidationTimeoutDuration: three minutes. */
export const SingleNodeConsolidationTimeoutMs = 180_000;

/** A consolidation search that ran out of its time budget, and what it left untried. */
export interface SearchCutShort {
  readonly method: 'multi-node-consolidation' | 'single-node-consolidation';
  readonly budgetMs: number;
  /** How long the search had run when it stopped (at least budgetMs). */
  readonly elapsedMs: number;
  /** Rescheduling simulations made before it stopped. */
  readonly attempts: number;
  /**
   * Candidates the search did not settle: for single-node, those it never tried; for
   * multi-node, those of the sets it did not try beyond the command it kept (if any).
   */
  readonly skipped: readonly string[];
  /** The same in words, for logs, events and the CLI. */
  readonly message: string;
}

/**
 * A consolidation method's time budget, read from an injected clock as upstream reads its own:
 * started when the method starts, checked before each simulation. Without a clock the search is
 * unbounded, so a pass stays a function of its snapshot alone (tests, the simulator's fake
 * clock, which does not move during a pass, behaves the same).
 */
export class SearchBudget {
  readonly budgetMs: number;
  readonly #clock: Clock | undefined;
  readonly #start: number;

  constructor(clock: Clock | undefined, budgetMs: number) {
    this.#clock = clock;
    this.budgetMs = budgetMs;
    this.#start = clock?.now() ?? 0;
  }

  /** Milliseconds since the method started; 0 without a clock. */
  elapsed(): number {
    return this.#clock === undefined ? 0 : this.#clock.now() - this.#start;
  }

  /** Whether the budget is spent, with the elapsed time it read; never without a clock. */
  check(): { readonly expired: boolean; readonly elapsedMs: number } {
    const elapsedMs = this.elapsed();
    return { expired: this.#clock !== undefined && elapsedMs > this.budgetMs, elapsedMs };
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function names(skipped: readonly string[]): string {
  const shown = skipped.slice(0, 3).join(', ');
  return skipped.length > 3 ? `${shown} and ${skipped.length - 3} more` : shown;
}

/** The record of a search stopped by its budget, with its message. */
export function cutShort(
  method: SearchCutShort['method'],
  budget: SearchBudget,
  elapsedMs: number,
  attempts: number,
  skipped: readonly string[],
  kept: number | undefined,
): SearchCutShort {
  const head = `${method} stopped at its time budget of ${seconds(budget.budgetMs)} after ${seconds(elapsedMs)} and ${attempts} simulation${attempts === 1 ? '' : 's'}`;
  const outcome =
    method === 'multi-node-consolidation'
      ? kept === undefined
        ? '; no command found'
        : `; kept the largest set found, ${kept} node${kept === 1 ? '' : 's'}`
      : '';
  const rest = skipped.length === 0 ? '' : `; not tried: ${names(skipped)}`;
  return { method, budgetMs: budget.budgetMs, elapsedMs, attempts, skipped, message: head + outcome + rest };
}
