import { NormalizedLabels } from '../../apis/labels.js';

/**
 * The key a requirement on `key` is stored under: deprecated beta aliases
 * (failure-domain.beta.kubernetes.io/zone, beta.kubernetes.io/arch, ...) map to their stable
 * names, everything else is unchanged. Idempotent.
 */
export function normalizeLabelKey(key: string): string {
  return NormalizedLabels.get(key) ?? key;
}
