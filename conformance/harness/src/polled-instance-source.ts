import type { Cancel, Timers } from '@nodewright/core/clock';
import type { MockInstance, MockInstanceSource } from './mock-instance.js';

/**
 * A {@link MockInstanceSource} for a mock whose instance states follow its clock rather than
 * events (ARM, GCE): every `periodMs` it reads `list()` and reports each instance whose state
 * changed since the last look, and `terminated` for each that left the list. Instances `list`
 * already calls terminated are treated as gone.
 */
export function polledInstanceSource(
  timers: Timers,
  periodMs: number,
  list: () => Iterable<MockInstance>,
): MockInstanceSource {
  return {
    watch(listener) {
      const seen = new Map<string, MockInstance>();
      let cancel: Cancel | undefined;
      let stopped = false;
      const poll = () => {
        const live = new Set<string>();
        for (const m of list()) {
          if (m.state === 'terminated') continue;
          live.add(m.providerID);
          if (seen.get(m.providerID)?.state !== m.state) {
            seen.set(m.providerID, m);
            listener(m);
          }
        }
        for (const [id, m] of seen) {
          if (live.has(id)) continue;
          seen.delete(id);
          listener({ ...m, state: 'terminated' });
        }
        if (!stopped) cancel = timers.after(periodMs, poll);
      };
      poll();
      return () => {
        stopped = true;
        cancel?.();
      };
    },
  };
}
