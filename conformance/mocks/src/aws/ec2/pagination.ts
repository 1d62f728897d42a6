import { int, type QueryNode, str } from '../query/form.js';
import { Ec2Error } from './errors.js';

/** One page of results and the token for the next, if any. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextToken: string | undefined;
}

/** The paging limits of one action, as EC2 documents them. */
export interface PageLimits {
  /** Page size when MaxResults is absent; undefined = everything. */
  readonly defaultSize?: number;
  readonly min: number;
  readonly max: number;
}

/**
 * Cuts `items` to the page a request's MaxResults + NextToken ask for. Tokens are opaque to
 * clients; here they encode the offset, scoped to the action so a token from another call fails.
 */
export function paginate<T>(
  action: string,
  items: readonly T[],
  request: QueryNode,
  limits: PageLimits,
): Page<T> {
  const maxResults = int(request, 'MaxResults');
  if (maxResults !== undefined && (maxResults < limits.min || maxResults > limits.max)) {
    throw new Ec2Error(
      'InvalidParameterValue',
      `MaxResults: ${maxResults} is outside ${limits.min}..${limits.max} for ${action}`,
    );
  }
  const token = str(request, 'NextToken');
  const offset = token === undefined ? 0 : decodeToken(action, token);
  const size = maxResults ?? limits.defaultSize ?? items.length;
  const end = offset + size;
  return {
    items: items.slice(offset, end),
    nextToken: end < items.length ? encodeToken(action, end) : undefined,
  };
}

function encodeToken(action: string, offset: number): string {
  return Buffer.from(`${action}:${offset}`).toString('base64url');
}

function decodeToken(action: string, token: string): number {
  const [a, o] = Buffer.from(token, 'base64url').toString().split(':');
  const offset = Number(o);
  if (a !== action || !Number.isInteger(offset) || offset < 0) {
    throw new Ec2Error('InvalidNextToken', `NextToken: '${token}' was not issued by ${action}`);
  }
  return offset;
}
