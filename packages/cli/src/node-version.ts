/** The Node major version nodewright is built and tested for (`engines` in package.json). */
export const RequiredNodeMajor = 24;

/**
 * Why this Node cannot run nodewright, with the fix, or undefined when it can. Written in the
 * syntax of old Node versions and importing nothing, because it runs before anything that
 * needs a newer one.
 */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number.parseInt(version.replace(/^v/, '').split('.')[0] ?? '', 10);
  if (major >= RequiredNodeMajor) return undefined;
  return `nodewright needs Node ${RequiredNodeMajor} (this is Node ${version}); run it through pnpm (pnpm -s nodewright ...), bin/nodewright, or install Node ${RequiredNodeMajor}`;
}
