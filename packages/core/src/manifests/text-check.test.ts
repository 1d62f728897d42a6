import { describe, expect, it } from 'vitest';
import { decodeManifests } from './decode.js';
import { binaryContentProblem } from './text-check.js';

describe('binaryContentProblem', () => {
  it('accepts text with tabs and CRLF line ends', () => {
    expect(binaryContentProblem('a: 1\r\nb:\t2\n')).toBeUndefined();
  });

  it('names the first control character and its line', () => {
    expect(binaryContentProblem('a: 1\nb: 2\n\u0000\u0001')).toEqual({
      message: 'binary data, not YAML or JSON text (control character 0x00)',
      line: 3,
    });
  });

  it('recognises bytes that were not UTF-8', () => {
    const text = Buffer.from([0x61, 0x3a, 0x20, 0xff, 0xfe]).toString('utf8');
    expect(binaryContentProblem(text)?.message).toBe(
      'binary data, not YAML or JSON text (bytes that are not UTF-8)',
    );
  });

  it('makes decodeManifests refuse the whole input in one error', () => {
    const set = decodeManifests('x.bin', `apiVersion: v1\n${'\u0000'.repeat(10_000)}`);
    expect(set.manifests).toEqual([]);
    expect(set.errors).toEqual([
      { file: 'x.bin', message: 'binary data, not YAML or JSON text (control character 0x00)', line: 2 },
    ]);
  });
});

describe('decodeManifests of a Helm render', () => {
  it('reads documents between Source comments and skips the empty ones', () => {
    const text = [
      '---',
      '# Source: chart/templates/serviceaccount.yaml',
      '---',
      '# Source: chart/templates/pod.yaml',
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: "release-web"',
      '---',
      '',
      '---',
      '# Source: chart/templates/cm.yaml',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: c}',
    ].join('\n');
    const set = decodeManifests('render.yaml', text);
    expect(set.errors).toEqual([]);
    expect(set.manifests.map((m) => [m.id, m.source.line])).toEqual([
      ['Pod/release-web', 5],
      ['ConfigMap/c', 13],
    ]);
  });
});
