import { describe, expect, it } from 'vitest';
import { JsonLineSplitter, type LogEntry } from './json-lines.js';

describe('JsonLineSplitter', () => {
  it('parses JSON lines split across chunks and passes other lines on as text', () => {
    const entries: LogEntry[] = [];
    const text: string[] = [];
    const splitter = new JsonLineSplitter(
      (entry) => entries.push(entry),
      (line) => text.push(line),
    );
    splitter.push('{"message":"serving health","por');
    splitter.push('t":8081}\r\n(node:1) Warning: x\n\n[1,2]\n{"message":"last"}');
    expect(entries).toEqual([{ message: 'serving health', port: 8081 }]);
    expect(text).toEqual(['(node:1) Warning: x', '[1,2]']);
    splitter.end();
    expect(entries.at(-1)).toEqual({ message: 'last' });
  });
});
