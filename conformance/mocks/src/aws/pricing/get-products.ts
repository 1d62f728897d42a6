import { AwsJsonError, type JsonAction, jsonNumber, jsonString } from '../json/errors.js';
import { type PriceProduct, priceListEntry } from './products.js';

/** What GetProducts reads. */
export interface PricingContext {
  readonly products: readonly PriceProduct[];
  readonly publicationDate: string;
}

interface Filter {
  readonly type: string;
  readonly field: string;
  readonly value: string;
}

function readFilters(input: Readonly<Record<string, unknown>>): Filter[] {
  const raw = input.Filters ?? [];
  if (!Array.isArray(raw)) throw new AwsJsonError('InvalidParameterException', 'Filters: expected a list');
  return raw.map((f, i) => {
    const r = (f ?? {}) as Record<string, unknown>;
    const type = typeof r.Type === 'string' ? r.Type : 'TERM_MATCH';
    const field = r.Field;
    const value = r.Value;
    if (typeof field !== 'string' || typeof value !== 'string') {
      throw new AwsJsonError(
        'InvalidParameterException',
        `Filters[${i}]: Field and Value are required strings`,
      );
    }
    return { type, field, value };
  });
}

function matches(p: PriceProduct, f: Filter): boolean {
  const key = Object.keys(p.attributes).find((k) => k.toLowerCase() === f.field.toLowerCase());
  const have = key === undefined ? undefined : p.attributes[key];
  switch (f.type) {
    case 'TERM_MATCH':
    case 'EQUALS':
      return have !== undefined && have.toLowerCase() === f.value.toLowerCase();
    case 'CONTAINS':
      return have?.toLowerCase().includes(f.value.toLowerCase()) ?? false;
    case 'ANY_OF':
      return f.value.split(',').some((v) => v.trim().toLowerCase() === have?.toLowerCase());
    case 'NONE_OF':
      return !f.value.split(',').some((v) => v.trim().toLowerCase() === have?.toLowerCase());
    default:
      throw new AwsJsonError('InvalidParameterException', `Filters: unknown filter type '${f.type}'`);
  }
}

/**
 * GetProducts for ServiceCode AmazonEC2: filters over product attributes (TERM_MATCH and the
 * newer EQUALS/CONTAINS/ANY_OF/NONE_OF), aws_v1 JSON strings, MaxResults 1..100 and NextToken.
 */
export const getProducts: JsonAction<PricingContext> = (input, ctx) => {
  const serviceCode = jsonString(input, 'ServiceCode', 'InvalidParameterException');
  if (serviceCode === undefined)
    throw new AwsJsonError('InvalidParameterException', 'ServiceCode is required');
  if (serviceCode !== 'AmazonEC2') {
    throw new AwsJsonError(
      'NotFoundException',
      `ServiceCode: the mock serves AmazonEC2 only, not '${serviceCode}'`,
    );
  }
  const format = jsonString(input, 'FormatVersion', 'InvalidParameterException') ?? 'aws_v1';
  if (format !== 'aws_v1')
    throw new AwsJsonError('InvalidParameterException', `FormatVersion: '${format}' is not aws_v1`);
  const max = jsonNumber(input, 'MaxResults', 'InvalidParameterException') ?? 100;
  if (max < 1 || max > 100)
    throw new AwsJsonError('InvalidParameterException', `MaxResults: ${max} is outside 1..100`);
  const filters = readFilters(input);
  const matched = ctx.products.filter((p) => filters.every((f) => matches(p, f)));
  const token = jsonString(input, 'NextToken', 'InvalidNextTokenException');
  const offset = token === undefined ? 0 : decodeToken(token);
  const end = offset + max;
  return {
    FormatVersion: 'aws_v1',
    PriceList: matched.slice(offset, end).map((p) => priceListEntry(p, ctx.publicationDate)),
    ...(end < matched.length ? { NextToken: Buffer.from(`GetProducts:${end}`).toString('base64url') } : {}),
  };
};

function decodeToken(token: string): number {
  const [action, n] = Buffer.from(token, 'base64url').toString().split(':');
  const offset = Number(n);
  if (action !== 'GetProducts' || !Number.isInteger(offset) || offset < 0) {
    throw new AwsJsonError(
      'InvalidNextTokenException',
      `NextToken: '${token}' was not issued by GetProducts`,
    );
  }
  return offset;
}
