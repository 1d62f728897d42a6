import { describe, expect, it } from 'vitest';
import { conditionTransitions, observedConditions } from './transitions.js';

const at = (iso: string) => Date.parse(iso);

describe('conditionTransitions', () => {
  const ready = (status: string, time: string, reason = '') => ({
    type: 'Ready',
    status,
    reason,
    lastTransitionMs: at(time),
  });

  it('counts a condition seen for the first time, without a duration', () => {
    expect(conditionTransitions(undefined, [ready('False', '2026-01-01T00:00:00Z', 'NotLaunched')])).toEqual([
      { type: 'Ready', status: 'False', reason: 'NotLaunched' },
    ]);
  });

  it('measures how long the previous status held, and ignores a reason change alone', () => {
    const before = [ready('False', '2026-01-01T00:00:00Z', 'A')];
    expect(conditionTransitions(before, [ready('False', '2026-01-01T00:00:00Z', 'B')])).toEqual([]);
    expect(conditionTransitions(before, [ready('True', '2026-01-01T00:01:30Z')])).toEqual([
      { type: 'Ready', status: 'True', reason: '', from: { status: 'False', seconds: 90 } },
    ]);
    // Without a transition time there is no duration, but still a transition.
    expect(conditionTransitions(before, [{ ...ready('True', 'x'), lastTransitionMs: Number.NaN }])).toEqual([
      { type: 'Ready', status: 'True', reason: '', from: { status: 'False' } },
    ]);
  });
});

describe('observedConditions', () => {
  it('reads status.conditions, skipping entries without a type or status', () => {
    expect(
      observedConditions({
        status: {
          conditions: [
            { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
            { type: 'Broken' },
          ],
        },
      }),
    ).toEqual([{ type: 'Ready', status: 'True', reason: '', lastTransitionMs: at('2026-01-01T00:00:00Z') }]);
    expect(observedConditions({})).toEqual([]);
  });
});
