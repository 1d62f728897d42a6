import { ForbiddenError, NotFoundError } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { type Lease, Leases } from '../leader-election/lease.js';

/** Where Karpenter keeps its leader election Lease unless its chart was told otherwise. */
export const KarpenterLeaseDefault: ObjectKey = {
  namespace: 'kube-system',
  name: 'karpenter-leader-election',
};

/** A Karpenter controller that holds its Lease now. */
export interface ActiveKarpenter {
  readonly holder: string;
  /** How long ago the holder last renewed. */
  readonly renewedAgoMs: number;
  readonly leaseDurationSeconds: number;
}

/**
 * Whether `lease` shows a live Karpenter leader at `nowMs`: held by someone and renewed within
 * its duration. An expired Lease is a Karpenter that was stopped or crashed, which may stay
 * behind for ever after an uninstall, so it does not block start-up.
 */
export function activeKarpenter(lease: Lease | undefined, nowMs: number): ActiveKarpenter | undefined {
  const spec = lease?.spec;
  const holder = spec?.holderIdentity ?? '';
  if (holder === '') return undefined;
  const renewed = Date.parse(spec?.renewTime ?? spec?.acquireTime ?? '');
  if (Number.isNaN(renewed)) return undefined;
  const leaseDurationSeconds = spec?.leaseDurationSeconds ?? 15;
  const renewedAgoMs = nowMs - renewed;
  return renewedAgoMs <= leaseDurationSeconds * 1_000
    ? { holder, renewedAgoMs, leaseDurationSeconds }
    : undefined;
}

/** What the start-up check found. */
export type KarpenterCheck =
  | { readonly state: 'absent' }
  | { readonly state: 'active'; readonly karpenter: ActiveKarpenter }
  | { readonly state: 'unknown'; readonly reason: string };

/**
 * Reads Karpenter's Lease. Both controllers act on the same `karpenter.sh` NodePools and
 * NodeClaims, so running beside a live Karpenter means two autoscalers launching and deleting
 * for the same pods. A Lease this process may not read is `unknown`, never `absent`.
 */
export async function checkKarpenter(
  cluster: ClusterPort,
  lease: ObjectKey,
  nowMs: number,
): Promise<KarpenterCheck> {
  try {
    const found = await cluster.get(Leases, lease);
    const karpenter = activeKarpenter(found, nowMs);
    return karpenter === undefined ? { state: 'absent' } : { state: 'active', karpenter };
  } catch (err) {
    if (err instanceof NotFoundError) return { state: 'absent' };
    if (err instanceof ForbiddenError) {
      return { state: 'unknown', reason: `may not read Lease ${leaseName(lease)}: ${err.message}` };
    }
    throw err;
  }
}

/** The refusal a live Karpenter earns, saying what to do about it. */
export function karpenterRefusal(lease: ObjectKey, karpenter: ActiveKarpenter): string {
  const ago = Math.max(0, Math.round(karpenter.renewedAgoMs / 1_000));
  return (
    `an active Karpenter controller holds Lease ${leaseName(lease)} (holder ${karpenter.holder}, renewed ${ago} s ago); ` +
    'both would launch and delete nodes for the same karpenter.sh NodePools and NodeClaims. ' +
    'Scale Karpenter to zero first, or pass --run-beside-karpenter=true if it manages other objects'
  );
}

function leaseName(lease: ObjectKey): string {
  return lease.namespace === undefined ? lease.name : `${lease.namespace}/${lease.name}`;
}
