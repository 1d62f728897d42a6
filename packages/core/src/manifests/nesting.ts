/**
 * How deeply a manifest's (or scenario's) values may nest. Kubernetes objects stay within about
 * twenty levels; code that walks a value recursively (copying, converting, validating) would
 * overflow the stack on a value thousands of levels deep, so input past this is an error.
 */
export const MaxNestingDepth = 100;

/**
 * The path to the first value nested deeper than `max` levels (objects and arrays count a
 * level each), or undefined when none is. Walks without recursion, so it is safe on any input.
 */
export function tooDeepPath(value: unknown, max = MaxNestingDepth): PropertyKey[] | undefined {
  // Every object of every input is checked, and almost none is too deep: a walk that counts
  // depths allocates no path per value, and the paths are built only for the rare one that is.
  if (!nestsDeeperThan(value, max)) return undefined;
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= max) return path;
    const entries: Array<[PropertyKey, unknown]> = Array.isArray(current)
      ? current.map((v, i) => [i, v])
      : Object.entries(current);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

function nestsDeeperThan(value: unknown, max: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
