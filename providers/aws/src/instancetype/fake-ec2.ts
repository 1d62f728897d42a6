import type { Ec2Api, PricingApi } from '../sdk/index.js';

/** One recorded SDK call. */
export interface RecordedCall {
  readonly method: string;
  readonly input: unknown;
}

type Handlers<A> = { [K in keyof A]?: A[K] };

/**
 * A call-recording Ec2Api for tests: each method given in `handlers` answers, every call (given
 * or not) is recorded in `calls`, and a missing method throws naming itself, so a test sees an
 * unexpected call instead of a silent undefined.
 */
export function fakeEc2(handlers: Handlers<Ec2Api>): Ec2Api & { readonly calls: RecordedCall[] } {
  return recording<Ec2Api>('Ec2Api', handlers);
}

/** The same for the Pricing API. */
export function fakePricing(handlers: Handlers<PricingApi>): PricingApi & { readonly calls: RecordedCall[] } {
  return recording<PricingApi>('PricingApi', handlers);
}

function recording<A extends object>(
  api: string,
  handlers: Handlers<A>,
): A & { readonly calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  return new Proxy({ calls } as A & { calls: RecordedCall[] }, {
    get(_target, property) {
      if (property === 'calls') return calls;
      if (typeof property !== 'string' || property === 'then') return undefined;
      return async (input: unknown) => {
        calls.push({ method: property, input });
        const handler = (handlers as Record<string, ((i: unknown) => Promise<unknown>) | undefined>)[
          property
        ];
        if (handler === undefined)
          throw new Error(`${api}.${property} was called but the fake does not answer it`);
        return handler(input);
      };
    },
  }) as A & { readonly calls: RecordedCall[] };
}

/** Splits `items` into pages of `size`, answering each call with the page its NextToken names. */
export function paged<T, O>(
  items: readonly T[],
  size: number,
  wrap: (page: T[], nextToken: string | undefined) => O,
): (input: { NextToken?: string | undefined }) => Promise<O> {
  return async (input) => {
    const start = input.NextToken === undefined ? 0 : Number(input.NextToken);
    const end = start + size;
    return wrap(items.slice(start, end), end < items.length ? String(end) : undefined);
  };
}
