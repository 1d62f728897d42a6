import { describe, expect, it } from 'vitest';
import {
  decodeFieldsV1,
  encodeFieldsV1,
  formatPath,
  leaves,
  pathKey,
  readPath,
  removePath,
  writePath,
} from './managed-fields.js';

describe('field paths', () => {
  const obj = {
    apiVersion: 'v1',
    kind: 'X',
    metadata: { name: 'n', uid: 'u', labels: { a: '1' }, finalizers: ['f1', 'f2'] },
    spec: { list: [1, 2], empty: {}, nested: { deep: true } },
    status: { phase: 'Ready' },
  };

  it('lists owned leaves, skipping server-managed metadata and splitting set lists', () => {
    const keys = [...leaves(obj, 'all').keys()].map((k) => formatPath(JSON.parse(k)));
    expect(keys.sort()).toEqual(
      [
        '.metadata.labels.a',
        '.metadata.finalizers[="f1"]',
        '.metadata.finalizers[="f2"]',
        '.spec.list',
        '.spec.empty',
        '.spec.nested.deep',
        '.status.phase',
      ].sort(),
    );
    expect([...leaves(obj, 'status').keys()]).toEqual([pathKey(['f:status', 'f:phase'])]);
    expect([...leaves(obj, 'main').keys()].some((k) => k.includes('f:status'))).toBe(false);
  });

  it('reads, writes and removes values and set items', () => {
    const target = structuredClone(obj) as unknown as Parameters<typeof writePath>[0];
    writePath(target, ['f:spec', 'f:new', 'f:x'], 5);
    expect(readPath(target, ['f:spec', 'f:new', 'f:x'])).toEqual({ found: true, value: 5 });
    writePath(target, ['f:metadata', 'f:finalizers', 'v:"f3"'], 'f3');
    writePath(target, ['f:metadata', 'f:finalizers', 'v:"f1"'], 'f1');
    expect((target.metadata as { finalizers: string[] }).finalizers).toEqual(['f1', 'f2', 'f3']);
    removePath(target, ['f:metadata', 'f:finalizers', 'v:"f2"']);
    removePath(target, ['f:spec', 'f:list']);
    removePath(target, ['f:spec', 'f:missing', 'f:x']);
    expect((target.metadata as { finalizers: string[] }).finalizers).toEqual(['f1', 'f3']);
    expect(readPath(target, ['f:spec', 'f:list']).found).toBe(false);
  });

  it('round-trips ownership through the FieldsV1 encoding', () => {
    const fields = new Set([
      pathKey(['f:spec', 'f:a']),
      pathKey(['f:spec', 'f:b', 'f:c']),
      pathKey(['f:metadata', 'f:finalizers', 'v:"x"']),
    ]);
    const encoded = encodeFieldsV1(fields);
    expect(encoded).toEqual({
      'f:spec': { 'f:a': {}, 'f:b': { 'f:c': {} } },
      'f:metadata': { 'f:finalizers': { 'v:"x"': {} } },
    });
    expect(decodeFieldsV1(encoded)).toEqual(fields);
  });
});
