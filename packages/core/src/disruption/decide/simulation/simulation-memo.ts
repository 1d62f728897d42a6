import type { SolverOptions } from '../../../scheduling/solver/types.js';
import type { Simulation } from './simulate-rescheduling.js';

/**
 * Rescheduling simulations already run over snapshots of the same content, by the candidates
 * they took away and the solver options. The solver is deterministic, so a pass over an
 * unchanged cluster (a poll that time alone woke: consolidateAfter ending, the 5-minute recheck)
 * finds every simulation the last pass ran here instead of solving it again. Whoever keeps one
 * must drop it the moment anything a solve reads may have changed; the disruption controller
 * keeps one per fingerprint of what its passes read.
 */
export class SimulationMemo {
  readonly #runs = new Map<string, Simulation>();

  get(candidates: ReadonlySet<string>, options: SolverOptions | undefined): Simulation | undefined {
    return this.#runs.get(simulationKey(candidates, options));
  }

  set(candidates: ReadonlySet<string>, options: SolverOptions | undefined, simulation: Simulation): void {
    this.#runs.set(simulationKey(candidates, options), simulation);
  }

  /** Simulations held. */
  get size(): number {
    return this.#runs.size;
  }
}

function simulationKey(candidates: ReadonlySet<string>, options: SolverOptions | undefined): string {
  return JSON.stringify([[...candidates].sort(), options ?? {}]);
}
