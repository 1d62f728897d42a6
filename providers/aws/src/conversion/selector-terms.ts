import { conversionJson } from '@nodewright/core/apis';
import { MaxSelectorTerms } from '../apis/selector-terms.js';

type Term = Record<string, unknown>;

/** The selector kinds a v1alpha1 AWSNodeTemplate expressed as a flat map. */
export type SelectorKind = 'subnet' | 'securityGroup' | 'ami';

const IdKeys = ['aws-ids', 'aws::ids'];

/**
 * Rewrites a v1alpha1-style selector map (`{karpenter.sh/discovery: my-cluster}`) as selector
 * terms, with the rules Karpenter's converter used: keys in sorted order; `aws-ids` /
 * `aws::ids` (and, for AMIs, `aws::name` and `aws::owners`) hold comma-separated lists; any
 * other key is a tag whose comma-separated values each make a separate term, so the terms are
 * every combination. One difference, because v1 rejects a term that pairs `id` with anything:
 * when ids are given, the terms are just the ids and the other filters are reported as
 * dropped.
 */
export function termsFromSelectorMap(
  selector: Readonly<Record<string, string>>,
  kind: SelectorKind,
): { terms: Term[]; dropped: string[] } | { tooMany: number } {
  const tooMany = combinationCount(selector);
  if (tooMany > MaxSelectorTerms) return { tooMany };
  let ids: string[] = [];
  let names: string[] = [''];
  let owners: string[] = [''];
  let tagSets: Array<Record<string, string>> = [{}];
  for (const key of Object.keys(selector).sort()) {
    const values = splitList(selector[key]!);
    if (IdKeys.includes(key)) ids = values;
    else if (kind === 'ami' && key === 'aws::name') names = values;
    else if (kind === 'ami' && key === 'aws::owners') owners = values;
    else tagSets = values.flatMap((value) => tagSets.map((tags) => ({ ...tags, [key]: value })));
  }
  if (ids.length > 0) {
    const dropped = Object.keys(selector)
      .sort()
      .filter((key) => !IdKeys.includes(key));
    return { terms: ids.map((id) => ({ id })), dropped };
  }
  const terms: Term[] = [];
  for (const owner of owners) {
    for (const name of names) {
      for (const tags of tagSets) {
        const term: Term = {};
        if (Object.keys(tags).length > 0) term.tags = tags;
        if (name !== '') term.name = name;
        if (owner !== '') term.owner = owner;
        terms.push(term);
      }
    }
  }
  return { terms, dropped: [] };
}

/**
 * How many terms the selector makes, counted before they are made: every combination of
 * comma-separated values grows as a product, and a map of a few keys with many values each
 * would otherwise build millions of terms before v1's limit of 30 rejects them.
 */
function combinationCount(selector: Readonly<Record<string, string>>): number {
  const keys = Object.keys(selector).sort();
  const idKey = keys.filter((key) => IdKeys.includes(key)).at(-1);
  if (idKey !== undefined) return splitList(selector[idKey]!).length;
  let count = 1;
  for (const key of keys) {
    count *= splitList(selector[key]!).length;
    // Stop early: the product of a few long lists overflows past any useful figure.
    if (count > MaxSelectorTerms) return count;
  }
  return count;
}

function splitList(text: string): string[] {
  return text.split(',').map((part) => part.trim());
}

/** A selector map whose values are all strings, or undefined when `value` is not one. */
export function asSelectorMap(value: unknown): Record<string, string> | undefined {
  if (!conversionJson.isJsonObject(value)) return undefined;
  const entries = Object.entries(value);
  if (!entries.every(([, v]) => typeof v === 'string')) return undefined;
  return Object.fromEntries(entries) as Record<string, string>;
}
