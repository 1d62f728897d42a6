import { describe, expect, it } from 'vitest';
import { decodeManifests } from './decode.js';
import { formatManifestError } from './format.js';

const pool = (name: string) => `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: ${name}\n`;

describe('decodeManifests: YAML streams', () => {
  it('decodes every document with its index and starting line, skipping empty ones', () => {
    const text = `# header comment\n${pool('a')}---\n---\n${pool('b')}---\n~\n---\n${pool('c')}`;
    const { manifests, errors } = decodeManifests('pools.yaml', text);
    expect(errors).toEqual([]);
    expect(manifests.map((m) => [m.id, m.source.document, m.source.line, m.source.ordinal])).toEqual([
      ['NodePool/a', 0, 2, 1],
      ['NodePool/b', 2, 8, 2],
      ['NodePool/c', 4, 15, 3],
    ]);
    expect(manifests[0]!.source.file).toBe('pools.yaml');
    expect(manifests[0]!.object).toEqual({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'a' },
    });
    expect(manifests[0]!.source.item).toBeUndefined();
  });

  it('yields nothing for an empty file or one with only comments', () => {
    expect(decodeManifests('a.yaml', '')).toEqual({ manifests: [], errors: [] });
    expect(decodeManifests('a.yaml', '# nothing\n')).toEqual({ manifests: [], errors: [] });
  });

  it('reports a syntax error with line and column and keeps the valid documents', () => {
    const text = `${pool('a')}---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: "web\n`;
    const { manifests, errors } = decodeManifests('pods.yaml', text);
    expect(manifests.map((m) => m.id)).toEqual(['NodePool/a']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'pods.yaml', line: 10, column: 1 });
    expect(errors[0]!.message).toBe('YAML syntax error: Missing closing "quote');
    expect(formatManifestError(errors[0]!)).toBe(
      'pods.yaml: YAML syntax error: Missing closing "quote (line 10, column 1)',
    );
  });

  it('reports bad indentation at the offending line', () => {
    const { errors } = decodeManifests(
      'a.yaml',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n labels: {}\n',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]!.line).toBe(5);
    expect(errors[0]!.message).toMatch(/^YAML syntax error: .*same column/);
  });

  it('reports duplicate keys as errors', () => {
    const { manifests, errors } = decodeManifests('a.yaml', 'apiVersion: v1\nkind: Pod\nkind: Node\n');
    expect(manifests).toEqual([]);
    expect(errors[0]).toMatchObject({ line: 3, message: 'YAML syntax error: Map keys must be unique' });
  });

  it('rejects a scalar document, naming the document and its line', () => {
    const { manifests, errors } = decodeManifests('a.yaml', `${pool('a')}---\njust text\n`);
    expect(manifests).toHaveLength(1);
    expect(errors).toEqual([
      { file: 'a.yaml', line: 6, message: 'document 2 is a string, expected an object' },
    ]);
  });
});

describe('decodeManifests: objects without a type', () => {
  it('reports a missing apiVersion and kind at the object, not skipping it', () => {
    const { manifests, errors } = decodeManifests('a.yaml', 'metadata:\n  name: x\n');
    expect(manifests).toEqual([]);
    expect(errors.map(formatManifestError)).toEqual([
      'a.yaml: <no kind>/x: apiVersion: is required (line 1)',
      'a.yaml: <no kind>/x: kind: is required (line 1)',
    ]);
  });

  it('reports a non-string kind at its own line', () => {
    const { errors } = decodeManifests('a.yaml', 'apiVersion: v1\nmetadata: {}\nkind: 3\n');
    expect(errors.map(formatManifestError)).toEqual([
      'a.yaml: <no kind>/<unnamed #1>: kind: must be a string, not a number (line 3)',
    ]);
  });

  it('numbers unnamed objects by their position in the file', () => {
    const text = `${pool('a')}---\napiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: ""}\n`;
    expect(decodeManifests('a.yaml', text).manifests.map((m) => m.id)).toEqual([
      'NodePool/a',
      'Pod/<unnamed #2>',
      'Pod/<unnamed #3>',
    ]);
  });
});

describe('decodeManifests: JSON and lists', () => {
  it('reads a JSON object', () => {
    const { manifests } = decodeManifests(
      'a.json',
      '{\n\t"apiVersion": "v1",\n\t"kind": "Node",\n\t"metadata": {"name": "n"}\n}\n',
    );
    expect(manifests.map((m) => [m.id, m.source.line])).toEqual([['Node/n', 1]]);
  });

  it('reads a JSON array, each item with its own line and index', () => {
    const text =
      '[\n  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}},\n  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "b"}}\n]\n';
    const { manifests, errors } = decodeManifests('nodes.json', text);
    expect(errors).toEqual([]);
    expect(manifests.map((m) => [m.id, m.source.item, m.source.line, m.source.ordinal])).toEqual([
      ['Node/a', 0, 2, 1],
      ['Node/b', 1, 3, 2],
    ]);
  });

  it('reads a JSON kind: List with JSON.parse, finding field lines only when asked', () => {
    const text = JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'v1', kind: 'Node', metadata: { name: 'a' } },
          { apiVersion: 'v1', kind: 'Node', metadata: { name: 'b', labels: { zone: 'z1' } } },
        ],
      },
      null,
      2,
    );
    const { manifests, errors } = decodeManifests('nodes.json', text);
    expect(errors).toEqual([]);
    const b = manifests[1]!;
    expect(b.object).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'b', labels: { zone: 'z1' } },
    });
    expect([
      b.source.line,
      b.source.lineOf(['metadata', 'labels', 'zone']),
      b.source.lineOf(['spec']),
    ]).toEqual([12, 18, 12]);
  });

  it('reports a non-object array item with its line', () => {
    const { manifests, errors } = decodeManifests(
      'a.json',
      '[\n  {"apiVersion": "v1", "kind": "Node"},\n  42\n]',
    );
    expect(manifests).toHaveLength(1);
    expect(errors).toEqual([
      { file: 'a.json', line: 3, message: 'item 2 of document 1 is a number, expected an object' },
    ]);
  });

  it('reports a JSON syntax error with line and column', () => {
    const { errors } = decodeManifests('a.json', '{\n  "apiVersion": "v1",\n  "kind": "Node"\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/^YAML syntax error: /);
    expect(errors[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it('expands a kind: List into its items', () => {
    const text =
      'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n- apiVersion: apps/v1\n  kind: DaemonSet\n  metadata: {name: d}\n';
    const { manifests } = decodeManifests('list.yaml', text);
    expect(manifests.map((m) => [m.id, m.apiVersion, m.source.line, m.source.item])).toEqual([
      ['Node/a', 'v1', 4, 0],
      ['DaemonSet/d', 'apps/v1', 7, 1],
    ]);
  });

  it('gives the items of a typed list (as the API returns them) the list type', () => {
    const text = JSON.stringify({
      apiVersion: 'v1',
      kind: 'PodList',
      metadata: {},
      items: [{ metadata: { name: 'p' } }],
    });
    const { manifests } = decodeManifests('pods.json', text);
    expect(manifests.map((m) => [m.id, m.apiVersion])).toEqual([['Pod/p', 'v1']]);
    expect(manifests[0]!.object.kind).toBe('Pod');
  });

  it('does not treat a named object whose kind ends in List as a list', () => {
    const text = 'apiVersion: example.com/v1\nkind: AllowList\nmetadata: {name: x}\nitems: []\n';
    expect(decodeManifests('a.yaml', text).manifests.map((m) => m.id)).toEqual(['AllowList/x']);
  });
});

describe('ManifestSource.lineOf', () => {
  const text = [
    'apiVersion: karpenter.sh/v1', // 1
    'kind: NodePool', // 2
    'metadata:', // 3
    '  name: default', // 4
    'spec:', // 5
    '  template:', // 6
    '    spec:', // 7
    '      requirements:', // 8
    '        - key: a', // 9
    '          operator: In', // 10
    '          values: [x]', // 11
    '        - key: b', // 12
    '          operator: In', // 13
    '          values: []', // 14
  ].join('\n');
  const source = decodeManifests('pools.yaml', text).manifests[0]!.source;

  it('finds the line of a nested field through list indices', () => {
    expect(source.lineOf(['spec', 'template', 'spec', 'requirements', 1, 'values'])).toBe(14);
    expect(source.lineOf(['spec', 'template', 'spec', 'requirements', 1])).toBe(12);
    expect(source.lineOf(['metadata', 'name'])).toBe(4);
  });

  it('falls back to the nearest present ancestor for an absent field', () => {
    expect(source.lineOf(['spec', 'template', 'spec', 'nodeClassRef'])).toBe(7);
    expect(source.lineOf(['spec', 'template', 'spec', 'requirements', 5, 'key'])).toBe(8);
  });

  it('gives the object line for the empty path', () => {
    expect(source.lineOf([])).toBe(1);
  });

  it('follows aliases', () => {
    const aliased = 'base: &b\n  x: 1\n  y: 2\napiVersion: v1\nkind: Pod\nspec: *b\n';
    const m = decodeManifests('a.yaml', aliased).manifests[0]!;
    expect(m.object.spec).toEqual({ x: 1, y: 2 });
    expect(m.source.lineOf(['spec', 'y'])).toBe(3);
  });
});
