import { formatFieldPath } from '../field-errors.js';
import type { Converter } from './converter.js';

/**
 * The migration hint for a field of an object of `apiVersion`/`kind`: the one a converter
 * producing that version gives for the field at `segments` (and its value, where the hint
 * names one). Undefined when no converter explains the field.
 */
export function migrationHintFor(
  converters: readonly Converter[],
  object: { readonly apiVersion: string; readonly kind: string; readonly value: unknown },
  segments: readonly PropertyKey[],
): string | undefined {
  const field = formatFieldPath(segments);
  const value = valueAt(object.value, segments);
  for (const converter of converters) {
    const hints = converter.migrationHints;
    if (converter.from.kind !== object.kind || hints?.apiVersion !== object.apiVersion) continue;
    const hint = hints.hints.find((h) => h.field === field && (h.value === undefined || h.value === value));
    if (hint !== undefined) return hint.hint;
  }
  return undefined;
}

function valueAt(root: unknown, segments: readonly PropertyKey[]): unknown {
  let at = root;
  for (const segment of segments) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[segment];
  }
  return at;
}
