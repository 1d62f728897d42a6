/**
 * `n` and the word, singular for exactly one: `1 pod`, `0 pods`, `2 NodeClaims`. A word whose
 * plural is not the singular plus "s" passes its plural.
 */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}
