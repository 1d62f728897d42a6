/**
 * What is wrong with the waits a provider chose before consecutive retries of one call, for a
 * backoff check: every wait must be positive (a retry that does not wait hammers a throttling
 * cloud) and each must be longer than the one before (the backoff grows). Empty when fine.
 */
export function backoffProblems(delays: readonly number[]): string[] {
  const problems: string[] = [];
  delays.forEach((delay, i) => {
    if (!(delay > 0)) problems.push(`retry ${i + 1} waited ${delay} ms`);
    const previous = delays[i - 1];
    if (previous !== undefined && !(delay > previous)) {
      problems.push(`retry ${i + 1} waited ${delay} ms, not longer than retry ${i}'s ${previous} ms`);
    }
  });
  return problems;
}
