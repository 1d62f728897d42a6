import { BadRequestError } from '../errors.js';
import { FieldSelectorError, matchesFieldSelector, parseFieldSelector } from '../field-selector.js';
import {
  type CompiledSelector,
  compileLabelSelector,
  LabelSelectorError,
  matchesCompiled,
  parseLabelSelector,
} from '../label-selector.js';
import type { KubeObject } from '../object.js';
import type { SelectorOptions } from '../port.js';
import type { KindPolicy } from './kinds.js';
import { asJson } from './object-store.js';
import type { ObjectFilter } from './watch-hub.js';

/** The value a field selector compares for an object; `undefined` when the kind lacks the field. */
export function fieldValue(policy: KindPolicy, obj: KubeObject, field: string): string | undefined {
  if (field === 'metadata.name') return obj.metadata.name ?? '';
  if (field === 'metadata.namespace') return obj.metadata.namespace ?? '';
  const read = policy.fields[field];
  return read === undefined ? undefined : read(asJson(obj));
}

/**
 * Compiles namespace, label and field selectors into one predicate. Rejects, as the API server
 * does with a 400, selectors that do not parse or name fields the kind does not support.
 */
export function compileFilter(policy: KindPolicy, options: SelectorOptions | undefined): ObjectFilter {
  const namespace = policy.type.namespaced ? options?.namespace : undefined;
  let labels: CompiledSelector = [];
  try {
    const selector = options?.labelSelector;
    if (typeof selector === 'string') labels = parseLabelSelector(selector);
    else if (selector !== undefined) labels = compileLabelSelector(selector);
  } catch (err) {
    if (err instanceof LabelSelectorError)
      throw new BadRequestError(`unable to parse requirement: ${err.message}`);
    throw err;
  }
  let fields: ReturnType<typeof parseFieldSelector> = [];
  try {
    fields = parseFieldSelector(options?.fieldSelector ?? '');
  } catch (err) {
    if (err instanceof FieldSelectorError) throw new BadRequestError(err.message);
    throw err;
  }
  for (const req of fields) {
    if (
      req.field !== 'metadata.name' &&
      req.field !== 'metadata.namespace' &&
      !(req.field in policy.fields)
    ) {
      throw new BadRequestError(`field label not supported: ${req.field}`);
    }
  }
  return (obj) =>
    (namespace === undefined || obj.metadata.namespace === namespace) &&
    matchesCompiled(labels, obj.metadata.labels) &&
    matchesFieldSelector(fields, (field) => fieldValue(policy, obj, field));
}
