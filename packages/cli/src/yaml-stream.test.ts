import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { joinYamlDocuments, toYamlStream } from './yaml-stream.js';

describe('toYamlStream', () => {
  it('separates documents with --- and round-trips the objects', () => {
    const objects = [{ a: 1, b: ['x'] }, { long: 'y'.repeat(200) }];
    const text = toYamlStream(objects);
    expect(text.split('\n').filter((l) => l === '---')).toHaveLength(1);
    expect(parseAllDocuments(text).map((d) => d.toJS())).toEqual(objects);
    // No folding: the long string stays on one line.
    expect(text).toContain(`long: ${'y'.repeat(200)}\n`);
  });

  it('is empty for no objects', () => {
    expect(toYamlStream([])).toBe('');
  });
});

describe('joinYamlDocuments', () => {
  it('adds --- between documents and a missing trailing newline', () => {
    expect(joinYamlDocuments(['a: 1\n', 'b: 2'])).toBe('a: 1\n---\nb: 2\n');
  });

  it('keeps the marker of documents that bring their own, after comments, without empty documents', () => {
    const crd = (n: number) => `# generated\n---\nname: c${n}\n`;
    const text = joinYamlDocuments([crd(1), crd(2)]);
    expect(text).toBe('# generated\n---\nname: c1\n# generated\n---\nname: c2\n');
    expect(parseAllDocuments(text).map((d) => d.toJS())).toEqual([{ name: 'c1' }, { name: 'c2' }]);
  });
});
