import { type QueryNode, str } from '../query/form.js';
import type { Ec2Action } from './context.js';
import { Ec2Error } from './errors.js';

/** EC2's limit on a client token: up to 64 ASCII characters. */
const MaxClientTokenLength = 64;

/**
 * An action made idempotent by its `ClientToken`, as EC2 does (CreateFleet, RunInstances): the
 * first successful request with a token is remembered with its response; repeating it with the
 * same parameters returns that response and changes nothing (no second launch); repeating it
 * with other parameters is `IdempotentParameterMismatch`. A request that failed is not
 * remembered, so its token may be used again. Without a token the action runs as it is.
 */
export function idempotentByClientToken(action: Ec2Action): Ec2Action {
  return (request, ctx) => {
    const token = str(request, 'ClientToken');
    if (token === undefined) return action(request, ctx);
    if (token.length > MaxClientTokenLength || !/^[\x20-\x7e]+$/.test(token)) {
      throw new Ec2Error(
        'InvalidParameterValue',
        `Value (${token}) for parameter clientToken is invalid. It must be at most ${MaxClientTokenLength} ASCII characters.`,
      );
    }
    const canonical = canonicalRequest(request);
    const earlier = ctx.state.clientTokens.get(token);
    if (earlier !== undefined) {
      if (earlier.request === canonical) return earlier.response;
      throw new Ec2Error(
        'IdempotentParameterMismatch',
        `Client token '${token}' was used with different parameters in an earlier request.`,
      );
    }
    const response = action(request, ctx);
    ctx.state.clientTokens.set(token, { request: canonical, response });
    return response;
  };
}

/** The request's parameters without the token, with keys in order, as one string. */
function canonicalRequest(request: QueryNode): string {
  const { ClientToken: _, ...rest } = request as Record<string, unknown>;
  return JSON.stringify(rest, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}
