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
  it('accepts documents with or without a leading --- and a trailing newline', () => {
    expect(joinYamlDocuments(['---\na: 1\n', 'b: 2'])).toBe('a: 1\n---\nb: 2\n');
  });
});
