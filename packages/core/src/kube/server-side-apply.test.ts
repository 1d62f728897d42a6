import { describe, expect, it } from 'vitest';
import type { JsonObject } from './json.js';
import { type FieldOwnership, formatPath } from './managed-fields.js';
import { applyConfiguration, type ManagerContext, recordUpdate } from './server-side-apply.js';

const ctx = (manager: string): ManagerContext => ({ manager, apiVersion: 'v1', time: 't', scope: 'all' });
const owned = (owners: FieldOwnership[], manager: string) =>
  [...(owners.find((o) => o.manager === manager)?.fields ?? [])].map((k) => JSON.parse(k).join('.')).sort();

describe('recordUpdate', () => {
  it('gives changed leaves to the writer and takes them from others', () => {
    const before: JsonObject = { spec: { a: 1, b: 2 } };
    const start = recordUpdate({}, before, [], ctx('creator'));
    // The creator also owns the spec map it created (FieldsV1 `f:spec: {".": {}, ...}`).
    expect(owned(start, 'creator')).toEqual(['f:spec', 'f:spec.f:a', 'f:spec.f:b']);
    const after = recordUpdate(before, { spec: { a: 1, b: 3, c: 4 } }, start, ctx('editor'));
    expect(owned(after, 'creator')).toEqual(['f:spec', 'f:spec.f:a']);
    expect(owned(after, 'editor')).toEqual(['f:spec.f:b', 'f:spec.f:c']);
  });

  it('drops ownership of removed fields and changes nothing on a no-op', () => {
    const start = recordUpdate({}, { spec: { a: 1, b: 2 } }, [], ctx('creator'));
    const removed = recordUpdate({ spec: { a: 1, b: 2 } }, { spec: { a: 1 } }, start, ctx('editor'));
    expect(owned(removed, 'creator')).toEqual(['f:spec', 'f:spec.f:a']);
    expect(removed.find((o) => o.manager === 'editor')).toBeUndefined();
    expect(recordUpdate({ spec: { a: 1 } }, { spec: { a: 1 } }, removed, ctx('x'))).toEqual(removed);
    const gone = recordUpdate({ spec: { a: 1 } }, {}, removed, ctx('editor'));
    expect(owned(gone, 'creator')).toEqual([]);
  });
});

describe('applyConfiguration', () => {
  it('sets the applied fields and records the manager as their owner', () => {
    const out = applyConfiguration(undefined, [], { spec: { a: 1, m: { k: 'v' } } }, ctx('me'), false);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.object).toEqual({ spec: { a: 1, m: { k: 'v' } } });
    expect(owned(out.owners, 'me')).toEqual(['f:spec.f:a', 'f:spec.f:m.f:k']);
    expect(out.owners[0]?.operation).toBe('Apply');
  });

  it('removes fields the manager stops applying, unless another manager owns them', () => {
    const first = applyConfiguration(undefined, [], { spec: { a: 1, b: 2, c: 3 } }, ctx('me'), false);
    if (!first.ok) throw new Error('unexpected conflict');
    const shared = applyConfiguration(first.object, first.owners, { spec: { c: 3 } }, ctx('other'), false);
    if (!shared.ok) throw new Error('equal values must not conflict');
    const second = applyConfiguration(shared.object, shared.owners, { spec: { a: 1 } }, ctx('me'), false);
    if (!second.ok) throw new Error('unexpected conflict');
    expect(second.object).toEqual({ spec: { a: 1, c: 3 } });
  });

  it('reports conflicts with other owners and takes over when forced', () => {
    const live: JsonObject = { spec: { replicas: 3, keep: 'x' } };
    const owners = recordUpdate({}, live, [], ctx('kubectl'));
    const refused = applyConfiguration(live, owners, { spec: { replicas: 5 } }, ctx('me'), false);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.conflicts.map((c) => [c.manager, formatPath(c.path)])).toEqual([
      ['kubectl', '.spec.replicas'],
    ]);
    const forced = applyConfiguration(live, owners, { spec: { replicas: 5 } }, ctx('me'), true);
    if (!forced.ok) throw new Error('force must succeed');
    expect(forced.object).toEqual({ spec: { replicas: 5, keep: 'x' } });
    expect(owned(forced.owners, 'kubectl')).toEqual(['f:spec', 'f:spec.f:keep']);
    expect(owned(forced.owners, 'me')).toEqual(['f:spec.f:replicas']);
  });

  it('keeps an Update manager owning the map it created after a forced apply takes its last leaf', () => {
    const live: JsonObject = { spec: { replicas: 3 } };
    const owners = recordUpdate({}, live, [], ctx('kubectl'));
    const forced = applyConfiguration(live, owners, { spec: { replicas: 5 } }, ctx('me'), true);
    if (!forced.ok) throw new Error('force must succeed');
    expect(owned(forced.owners, 'kubectl')).toEqual(['f:spec']);
    const replaced = applyConfiguration(forced.object, forced.owners, { spec: 'flat' }, ctx('me'), false);
    expect(replaced.ok).toBe(false);
    if (replaced.ok) return;
    expect(replaced.conflicts.map((c) => [c.manager, formatPath(c.path)])).toEqual([['kubectl', '.spec']]);
  });

  it('lets an empty object merge into a map others fill', () => {
    const first = applyConfiguration(undefined, [], { spec: { nested: { a: 1 } } }, ctx('one'), false);
    if (!first.ok) throw new Error('unexpected conflict');
    const second = applyConfiguration(
      first.object,
      first.owners,
      { spec: { nested: {} } },
      ctx('two'),
      false,
    );
    if (!second.ok) throw new Error('an empty map must not conflict with its contents');
    expect(second.object).toEqual({ spec: { nested: { a: 1 } } });
    const third = applyConfiguration(second.object, second.owners, { spec: {} }, ctx('two'), false);
    if (!third.ok) throw new Error('unexpected conflict');
    expect(third.object).toEqual({ spec: { nested: { a: 1 } } });
  });

  it('merges set-list items per manager', () => {
    const first = applyConfiguration(
      undefined,
      [],
      { metadata: { finalizers: ['a.io/x'] } },
      ctx('one'),
      false,
    );
    if (!first.ok) throw new Error('unexpected conflict');
    const second = applyConfiguration(
      first.object,
      first.owners,
      { metadata: { finalizers: ['b.io/y'] } },
      ctx('two'),
      false,
    );
    if (!second.ok) throw new Error('set items must not conflict');
    expect(second.object).toEqual({ metadata: { finalizers: ['a.io/x', 'b.io/y'] } });
    const dropped = applyConfiguration(second.object, second.owners, { metadata: {} }, ctx('one'), false);
    if (!dropped.ok) throw new Error('unexpected conflict');
    expect(dropped.object).toEqual({ metadata: { finalizers: ['b.io/y'] } });
  });
});
