import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KindRegistry } from '../apis/kind.js';
import { kubernetesKinds } from '../apis/kubernetes/kinds.js';
import { decodeManifests } from './decode.js';
import { formatManifestError } from './format.js';
import { CompileSchemaAtCount, parseManifests } from './parse.js';

const registry = new KindRegistry([
  {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    namespaced: false,
    schema: z.object({
      apiVersion: z.literal('karpenter.sh/v1'),
      kind: z.literal('NodePool'),
      metadata: z.object({ name: z.string() }),
      spec: z.strictObject({
        weight: z.number().int().max(100).optional(),
        requirements: z.array(z.object({ key: z.string(), values: z.array(z.string()).min(1) })).default([]),
      }),
    }),
  },
  { apiVersion: 'v1', kind: 'Node', namespaced: false, schema: z.object({ kind: z.literal('Node') }) },
]);

const parse = (text: string, hint?: (apiVersion: string, kind: string) => string | undefined) =>
  parseManifests(
    registry,
    decodeManifests('pools.yaml', text).manifests,
    hint ? { unsupportedVersionHint: hint } : {},
  );

describe('parseManifests', () => {
  it('returns the parsed, defaulted value of a valid object with its definition', () => {
    const { parsed, errors } = parse(
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec: {}\n',
    );
    expect(errors).toEqual([]);
    expect(parsed).toHaveLength(1);
    expect(parsed[0]!.definition.kind).toBe('NodePool');
    expect(parsed[0]!.value).toMatchObject({ spec: { requirements: [] } });
    expect(parsed[0]!.manifest.id).toBe('NodePool/default');
  });

  it('reports schema errors per field with the field path and its line', () => {
    const text = [
      'apiVersion: karpenter.sh/v1',
      'kind: NodePool',
      'metadata: {name: default}',
      'spec:',
      '  weight: 200',
      '  requirements:',
      '    - key: a',
      '      values: [x]',
      '    - key: b',
      '      values: []',
      '  extra: 1',
    ].join('\n');
    expect(parse(text).errors.map(formatManifestError)).toEqual([
      'pools.yaml: NodePool/default: spec.weight: must be at most 100 (line 5)',
      'pools.yaml: NodePool/default: spec.requirements[1].values: must not be empty (line 10)',
      'pools.yaml: NodePool/default: spec: unknown field "extra" (line 11)',
    ]);
  });

  it('reports an unknown kind, listing the known ones', () => {
    const { parsed, errors } = parse('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n');
    expect(parsed).toEqual([]);
    expect(errors.map(formatManifestError)).toEqual([
      'pools.yaml: Deployment/web: kind: Deployment (apps/v1) is not a kind nodewright knows (known: Node, NodePool) (line 2)',
    ]);
  });

  it('reports an unknown apiVersion of a known kind with the known versions and the hint', () => {
    const hint = (apiVersion: string) =>
      apiVersion === 'karpenter.sh/v1beta1' ? 'run nodewright convert' : undefined;
    const text = 'kind: NodePool\napiVersion: karpenter.sh/v1beta1\nmetadata: {name: old}\n';
    expect(parse(text, hint).errors.map(formatManifestError)).toEqual([
      'pools.yaml: NodePool/old: apiVersion: NodePool apiVersion karpenter.sh/v1beta1 is not supported (known: karpenter.sh/v1); run nodewright convert (line 2)',
    ]);
    expect(parse(text.replace('v1beta1', 'v2'), hint).errors[0]!.message).toBe(
      'NodePool apiVersion karpenter.sh/v2 is not supported (known: karpenter.sh/v1)',
    );
  });

  it('keeps going after an invalid object', () => {
    const text =
      'apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: Node\n';
    const { parsed, errors } = parse(text);
    expect(parsed.map((p) => p.manifest.id)).toEqual(['Node/a', 'Node/<unnamed #3>']);
    expect(errors).toHaveLength(1);
  });
});

describe('parseManifests of many objects of one kind (the schema compiled)', () => {
  const pods = new KindRegistry(kubernetesKinds);
  const pod = (i: number, spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p-${i}`, namespace: i % 2 === 0 ? undefined : 'web', labels: { app: `a${i % 7}` } },
    spec,
  });
  const specs: Array<Record<string, unknown>> = [
    { containers: [{ name: 'app', resources: { requests: { cpu: '250m', memory: '1Gi' } } }] },
    {
      containers: [{ name: 'app', resources: { requests: { cpu: 1 } }, ports: [{ containerPort: 80 }] }],
      nodeSelector: { 'topology.kubernetes.io/zone': 'a' },
      tolerations: [{ key: 'k', operator: 'Exists' }],
      priority: null,
    },
    // Invalid: no containers; a negative request; a duplicate container name.
    { containers: [] },
    { containers: [{ name: 'app', resources: { requests: { cpu: '-1' } } }] },
    { containers: [{ name: 'a' }, { name: 'a' }] },
  ];
  const objects = Array.from({ length: CompileSchemaAtCount + 5 }, (_, i) =>
    pod(i, specs[i % specs.length]!),
  );
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });

  it('compiles the Pod schema (else large inputs silently lose the fast path)', () => {
    const podKind = pods.get('v1', 'Pod')!;
    expect(z.compile(podKind.schema, { strict: true })).not.toBe(podKind.schema);
  });

  it('gives the values and errors that parsing each object alone gives', () => {
    const many = parseManifests(pods, decodeManifests('pods.json', text).manifests);
    const one = (i: number) =>
      parseManifests(pods, decodeManifests('pods.json', JSON.stringify(objects[i])).manifests);
    expect(many.parsed).toHaveLength(((CompileSchemaAtCount + 5) / 5) * 2);
    for (const i of [0, 1, 2, 3, 4, 5, 6, 1003, 1004]) {
      const alone = one(i);
      const inMany = i % 5 < 2 ? many.parsed.find((p) => p.manifest.name === `p-${i}`) : undefined;
      expect(inMany?.value).toEqual(alone.parsed[0]?.value);
      const errors = many.errors.filter((e) => e.object === `Pod/p-${i}`);
      expect(errors.map((e) => [e.path, e.message])).toEqual(alone.errors.map((e) => [e.path, e.message]));
      expect(errors.length > 0).toBe(i % 5 >= 2);
    }
  });
});
