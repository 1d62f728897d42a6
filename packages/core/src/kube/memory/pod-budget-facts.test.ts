import { describe, expect, it } from 'vitest';
import type { PodLike } from '../pod.js';
import { PodBudgetFacts } from './pod-budget-facts.js';
import { budgetPod } from './test-fixtures.js';

function pod(labels: Record<string, string>, ready: boolean, owner?: string): PodLike {
  return Object.freeze(budgetPod({ labels, ready, owner }));
}

describe('PodBudgetFacts', () => {
  it('answers as isPodReady, controllerOf and matchesLabelSelector would, per stored version', () => {
    const facts = new PodBudgetFacts();
    const web = { matchLabels: { app: 'web' } };
    const v1 = pod({ app: 'web' }, false, 'rs-a');
    expect(facts.ready(v1)).toBe(false);
    expect(facts.selects('web', web, v1)).toBe(true);
    expect(facts.selects('db', { matchLabels: { app: 'db' } }, v1)).toBe(false);
    expect(facts.selects('none', undefined, v1)).toBe(false);
    expect(facts.controllerKey(v1)).toBe('ns\u0000apps/v1\u0000ReplicaSet\u0000rs-a\u0000rs-a-uid');
    // A change stores a new object: its facts are its own.
    const v2 = pod({ app: 'db' }, true);
    expect(facts.ready(v2)).toBe(true);
    expect(facts.selects('web', web, v2)).toBe(false);
    expect(facts.controllerKey(v2)).toBeUndefined();
    expect(facts.ready(v1)).toBe(false);
  });

  it('keeps a verdict for the object it was asked of: a stored pod never changes in place', () => {
    const facts = new PodBudgetFacts();
    const labels: Record<string, string> = { app: 'web' };
    const p = { metadata: { name: 'p', namespace: 'ns', labels } } as PodLike;
    expect(facts.selects('web', { matchLabels: { app: 'web' } }, p)).toBe(true);
    labels.app = 'db';
    expect(facts.selects('web', { matchLabels: { app: 'web' } }, p)).toBe(true);
  });
});
