import { type CoreEvent, Events, isForbidden } from '@nodewright/core/kube';
import type { LiveCluster } from './live-cluster.js';

/** One Event about an object, as `why` shows it. */
export interface ObjectEvent {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly count: number;
  /** RFC 3339; the newest occurrence. */
  readonly lastTimestamp: string;
  /** Who recorded it: `nodewright`, `default-scheduler`, `karpenter`, ... */
  readonly source: string;
}

/** Events shown per object: the newest ones, oldest first. */
const ShownEvents = 10;

/**
 * The newest Events about one object (FailedScheduling, Nominated, DisruptionBlocked, ...), oldest
 * first, from whoever recorded them: what the controller and kube-scheduler last said about it.
 * Events are extra: when they cannot be read, a note says so instead.
 */
export async function recentEvents(
  cluster: LiveCluster,
  object: { readonly kind: string; readonly name: string; readonly namespace?: string },
): Promise<{ readonly events: ObjectEvent[]; readonly note?: string }> {
  let items: CoreEvent[];
  try {
    const listed = await cluster.list(Events, {
      ...(object.namespace === undefined ? {} : { namespace: object.namespace }),
      fieldSelector: `involvedObject.kind=${object.kind},involvedObject.name=${object.name}`,
    });
    items = listed.items as CoreEvent[];
  } catch (error) {
    const why = isForbidden(error) ? 'forbidden' : error instanceof Error ? error.message : String(error);
    return { events: [], note: `the Events of ${object.kind} ${object.name} were not read (${why})` };
  }
  const events = items.map((e) => ({
    type: e.type,
    reason: e.reason,
    message: e.message,
    count: e.count ?? 1,
    lastTimestamp:
      e.lastTimestamp ?? (e as { eventTime?: string }).eventTime ?? e.metadata.creationTimestamp ?? '',
    source: e.source?.component ?? e.reportingComponent ?? '',
  }));
  events.sort((a, b) => (a.lastTimestamp < b.lastTimestamp ? -1 : a.lastTimestamp > b.lastTimestamp ? 1 : 0));
  return { events: events.slice(-ShownEvents) };
}
