import { checkSolution } from '../../checker/check-solution.js';
import { solve } from '../solve.js';
import type { SolverInput, SolverResult } from '../types.js';

/**
 * Solves and checks the result with the independent checker.
 * @throws Error listing the checker's violations, so a test fails on an invalid result.
 */
export function solveChecked(input: SolverInput): SolverResult {
  const result = solve(input);
  const violations = checkSolution(input, result);
  if (violations.length > 0) throw new Error(`invalid solver result:\n${violations.join('\n')}`);
  return result;
}
