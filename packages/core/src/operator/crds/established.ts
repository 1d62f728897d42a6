import type { CheckResult } from '../http/routes.js';
import type { CrdObject } from './crd-type.js';

/**
 * Whether the API server serves a CRD: its `Established` condition is True. A `NamesAccepted`
 * False (a name clash) is reported as the reason, since the CRD will never be established.
 */
export function crdEstablished(crd: CrdObject): CheckResult {
  const conditions = crd.status?.conditions ?? [];
  const established = conditions.find((c) => c.type === 'Established');
  if (established?.status === 'True') return { ok: true };
  const names = conditions.find((c) => c.type === 'NamesAccepted');
  if (names?.status === 'False') {
    return { ok: false, reason: `names not accepted: ${names.message ?? names.reason ?? 'no reason given'}` };
  }
  if (established === undefined) return { ok: false, reason: 'no Established condition yet' };
  return {
    ok: false,
    reason: `Established is ${established.status}${established.message ? `: ${established.message}` : ''}`,
  };
}
