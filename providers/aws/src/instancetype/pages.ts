/**
 * Every item of a paginated EC2/Pricing call: calls again with each `NextToken` until there is
 * none. A token seen twice means the server is looping, which would otherwise never end.
 * @throws Error naming the operation when a token repeats; whatever the call throws.
 */
export async function allPages<I extends object, O extends { NextToken?: string | undefined }, T>(
  operation: string,
  call: (input: I) => Promise<O>,
  input: I,
  items: (output: O) => readonly T[] | undefined,
): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let token: string | undefined;
  for (;;) {
    const page = await call(token === undefined ? input : { ...input, NextToken: token });
    out.push(...(items(page) ?? []));
    token = page.NextToken || undefined;
    if (token === undefined) return out;
    if (seen.has(token)) throw new Error(`${operation}: NextToken ${token} returned twice; giving up paging`);
    seen.add(token);
  }
}
