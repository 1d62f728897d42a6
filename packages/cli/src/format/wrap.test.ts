import { describe, expect, it } from 'vitest';
import { wrapText } from './wrap.js';

describe('wrapText', () => {
  it('breaks at spaces so no line is longer than the width', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('a bb', 4)).toEqual(['a bb']);
  });

  it('gives a word longer than the width its own line, and nothing for empty text', () => {
    expect(wrapText('x averyverylongword y', 5)).toEqual(['x', 'averyverylongword', 'y']);
    expect(wrapText('  ')).toEqual([]);
  });
});
