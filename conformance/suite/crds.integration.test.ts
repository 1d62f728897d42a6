import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
// @nodewright/aws is not (yet) a dependency of @nodewright/conformance, so it is imported by
// path; vitest resolves its own `@nodewright/core` imports to the same sources.
import { ec2NodeClassKind, ec2NodeClassRuleCases, exampleEC2NodeClass } from '@nodewright/aws';
import {
  crdFileName,
  exampleNodeClaim,
  exampleNodePool,
  generateCrd,
  type KindDefinition,
  nodeClaimKind,
  nodeClaimRuleCases,
  nodePoolKind,
  nodePoolRuleCases,
  type RuleCase,
  renderCrdYaml,
  type SchemaNode,
  withValue,
} from '@nodewright/core/apis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type ClusterConnection,
  KubeHttpClient,
  type KubeResponse,
  loadKubeconfig,
} from '../cluster/src/index.js';
import {
  canonicalFieldPath,
  judgeRejection,
  nameOf,
  type RawResponse,
  type RuleVerdict,
  rawRequest,
  rejectionOf,
  resourcePaths,
  waitUntil,
  warningsOf,
  withNameSuffix,
} from './src/index.js';

// Proves, on a real kube-apiserver, that the CRDs nodewright generates say what its zod
// schemas say: every rule case is accepted / refused by the server as by the schema, at the
// same field and with the same message (or its OpenAPI equivalent), and the server applies
// the same defaults.

interface Subject {
  readonly kind: KindDefinition;
  readonly cases: readonly RuleCase[];
  /** Where the CRD file is committed. */
  readonly crdDir: URL;
  readonly example: () => unknown;
  /** A status the kind's schema accepts, for the status-subresource checks. */
  readonly status: Record<string, unknown>;
  /** A valid change of the example's spec. */
  readonly specChange: readonly [path: readonly string[], value: unknown];
}

const Time = '2024-01-02T15:04:05Z';
const readyCondition = {
  type: 'Ready',
  status: 'True',
  reason: 'Ready',
  message: '',
  lastTransitionTime: Time,
};

const subjects: readonly Subject[] = [
  {
    kind: nodePoolKind,
    cases: nodePoolRuleCases,
    crdDir: new URL('../../packages/core/crds/', import.meta.url),
    example: exampleNodePool,
    status: { nodes: 2, resources: { cpu: '4', memory: '8Gi', nodes: '2' }, conditions: [readyCondition] },
    specChange: [['spec', 'weight'], 7],
  },
  {
    kind: nodeClaimKind,
    cases: nodeClaimRuleCases,
    crdDir: new URL('../../packages/core/crds/', import.meta.url),
    example: exampleNodeClaim,
    status: {
      nodeName: 'node-a',
      providerID: 'aws:///us-west-2a/i-0123456789abcdef0',
      conditions: [readyCondition],
    },
    specChange: [['spec', 'expireAfter'], '24h'],
  },
  {
    kind: ec2NodeClassKind,
    cases: ec2NodeClassRuleCases,
    crdDir: new URL('../../providers/aws/crds/', import.meta.url),
    example: exampleEC2NodeClass,
    status: {
      instanceProfile: 'profile',
      subnets: [{ id: 'subnet-0a1b', zone: 'us-west-2a' }],
      conditions: [readyCondition],
    },
    specChange: [['spec', 'tags'], { team: 'web' }],
  },
];

const FieldManager = 'nodewright';
// kubectl's default: unknown fields are errors, not silently pruned.
const Strict = '?fieldValidation=Strict';
const poll = { timeout: 60_000, interval: 250 };
const wait = { timeoutMs: 60_000, intervalMs: 250 };
const runId = randomUUID().slice(0, 8);

type Manifest = {
  metadata: { name: string; resourceVersion?: string; generation?: number; labels?: Record<string, string> };
} & Record<string, unknown>;
interface Condition {
  type: string;
  status: string;
}
interface CrdObject {
  metadata: { managedFields?: { manager: string; operation: string }[] };
  spec: { versions: { additionalPrinterColumns?: unknown[]; subresources?: unknown }[] };
  status?: { conditions?: Condition[]; acceptedNames?: Record<string, unknown> };
}

const cluster = inject('nodewrightCluster');
let connection: ClusterConnection;
let client: KubeHttpClient;
const applied = new Map<string, RawResponse>();
const verdicts: { kind: string; rule: string; verdict: RuleVerdict }[] = [];
let counter = 0;

/** A fresh lower-case suffix per object, so nothing collides with other suites on the cluster. */
const nextSuffix = (): string => `${runId}${(counter++).toString(36)}`;

const schemaOf = (kind: KindDefinition): SchemaNode =>
  generateCrd(kind).spec.versions[0]?.schema.openAPIV3Schema ?? {};

const conditionOf = (crd: CrdObject | undefined, type: string): string | undefined =>
  crd?.status?.conditions?.find((c) => c.type === type)?.status;

/** What a refused request said, for an assertion message. */
function describeResponse(res: KubeResponse): string {
  const rejection = rejectionOf(res);
  const causes = rejection.causes.map((c) => `\n    ${c.field} [${c.reason}] ${c.message}`).join('');
  return `${res.status} ${rejection.reason}: ${rejection.message}${causes}`;
}

async function create(kind: KindDefinition, manifest: unknown): Promise<KubeResponse<Manifest>> {
  return client.request<Manifest>('POST', `${resourcePaths(kind).collection}${Strict}`, { body: manifest });
}

async function put(path: string, manifest: unknown): Promise<KubeResponse<Manifest>> {
  return client.request<Manifest>('PUT', `${path}${Strict}`, { body: manifest });
}

async function get(kind: KindDefinition, name: string): Promise<Manifest> {
  const res = await client.get<Manifest>(resourcePaths(kind).object(name));
  expect(res.status, describeResponse(res)).toBe(200);
  return res.body;
}

async function remove(kind: KindDefinition, name: string | undefined): Promise<void> {
  if (name !== undefined) await client.delete(resourcePaths(kind).object(name));
}

/** Creates `manifest`, expecting success; returns the stored object. */
async function mustCreate(kind: KindDefinition, manifest: unknown, what: string): Promise<Manifest> {
  const res = await create(kind, manifest);
  expect(res.status, `${what} was refused: ${describeResponse(res)}`).toBe(201);
  return res.body;
}

const withResourceVersion = (manifest: unknown, stored: Manifest): unknown =>
  withValue(manifest, ['metadata', 'resourceVersion'], stored.metadata.resourceVersion);

/** Asserts the server refused `res` as the rule case says, printing both sides if not. */
function expectRuleRefusal(subject: Subject, ruleCase: RuleCase, res: KubeResponse): void {
  expect(
    res.status >= 300,
    `the invalid manifest was accepted (${res.status}); nodewright says ${ruleCase.path}: ${ruleCase.message}`,
  ).toBe(true);
  const verdict = judgeRejection(ruleCase, rejectionOf(res), schemaOf(subject.kind));
  verdicts.push({ kind: subject.kind.kind, rule: ruleCase.rule, verdict });
  if (!verdict.agrees) expect.fail(`CRD and zod schema disagree:\n${verdict.explanation}`);
}

const isStatusCase = (ruleCase: RuleCase): boolean => /^status\b/.test(canonicalFieldPath(ruleCase.path));

/**
 * A rule about a plain field: the valid manifest is created, the invalid one refused.
 * A rule about status is exercised through the status subresource, since a create drops
 * status.
 */
async function checkCreateRule(subject: Subject, ruleCase: RuleCase): Promise<void> {
  const suffix = nextSuffix();
  const valid = withNameSuffix(ruleCase.valid, suffix);
  const invalid = withNameSuffix(ruleCase.invalid, suffix);
  const paths = resourcePaths(subject.kind);
  try {
    const stored = await mustCreate(subject.kind, valid, 'the valid manifest');
    if (isStatusCase(ruleCase)) {
      const name = stored.metadata.name;
      const updated = await put(paths.status(name), withResourceVersion(valid, stored));
      expect(updated.status, `the valid status was refused: ${describeResponse(updated)}`).toBe(200);
      expectRuleRefusal(
        subject,
        ruleCase,
        await put(paths.status(name), withResourceVersion(invalid, updated.body)),
      );
      return;
    }
    await remove(subject.kind, stored.metadata.name);
    const refused = await create(subject.kind, invalid);
    if (refused.status === 201) await remove(subject.kind, refused.body.metadata.name);
    expectRuleRefusal(subject, ruleCase, refused);
  } finally {
    await remove(subject.kind, nameOf(valid));
  }
}

/** A transition rule: `old` is stored, the update to `invalid` refused, to `valid` accepted. */
async function checkTransitionRule(subject: Subject, ruleCase: RuleCase): Promise<void> {
  const suffix = nextSuffix();
  const old = withNameSuffix(ruleCase.old, suffix);
  const paths = resourcePaths(subject.kind);
  try {
    const stored = await mustCreate(subject.kind, old, 'the old manifest');
    const path = paths.object(stored.metadata.name);
    const invalid = withResourceVersion(withNameSuffix(ruleCase.invalid, suffix), stored);
    expectRuleRefusal(subject, ruleCase, await put(path, invalid));
    const valid = withResourceVersion(withNameSuffix(ruleCase.valid, suffix), stored);
    const updated = await put(path, valid);
    expect(updated.status, `the valid update was refused: ${describeResponse(updated)}`).toBe(200);
  } finally {
    await remove(subject.kind, nameOf(old));
  }
}

beforeAll(async () => {
  connection = await loadKubeconfig(cluster.kubeconfigPath);
  client = new KubeHttpClient(connection);
  // What `nodewright crds | kubectl apply --server-side --force-conflicts -f -` sends: each
  // rendered YAML document as an apply patch.
  for (const { kind } of subjects) {
    const paths = resourcePaths(kind);
    const res = await rawRequest(connection, 'PATCH', paths.applyCrd(FieldManager), {
      body: renderCrdYaml(kind),
      contentType: 'application/apply-patch+yaml',
    });
    applied.set(kind.kind, res);
  }
  for (const { kind } of subjects) {
    if ((applied.get(kind.kind)?.status ?? 0) >= 300) continue;
    const paths = resourcePaths(kind);
    await waitUntil(
      async () => conditionOf((await client.get<CrdObject>(paths.crd)).body, 'Established'),
      (status) => status === 'True',
      { ...wait, what: `${paths.crdName} Established` },
    );
    // A CRD is served a moment after it reports Established.
    await waitUntil(
      async () => (await client.get(paths.collection)).status,
      (status) => status === 200,
      { ...wait, what: `${paths.collection} served` },
    );
  }
});

afterAll(() => {
  if (verdicts.length > 0) {
    const tally = new Map<string, number>();
    for (const { verdict } of verdicts) {
      const key = !verdict.agrees
        ? 'DISAGREES'
        : verdict.agreement?.kind === 'same'
          ? 'same message'
          : `same meaning via ${verdict.agreement?.how}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    const lines = [...tally]
      .sort(([, a], [, b]) => b - a)
      .map(([key, n]) => `  ${String(n).padStart(3)}  ${key}`);
    const disagreements = verdicts
      .filter((v) => !v.verdict.agrees)
      .map((v) => `\n${v.kind}: ${v.verdict.explanation}`);
    console.log(`CRD rule cases checked on the API server:\n${lines.join('\n')}${disagreements.join('\n')}`);
  }
  client?.close();
});

describe('nodewright CRDs on a real API server', () => {
  it.each(subjects.map((s) => [s.kind.kind, s] as const))(
    'the committed %s CRD file is what `nodewright crds` renders',
    async (_, subject) => {
      const committed = await readFile(new URL(crdFileName(subject.kind), subject.crdDir), 'utf8');
      expect(committed).toBe(renderCrdYaml(subject.kind));
    },
  );

  it.each(subjects.map((s) => [s.kind.kind, s] as const))(
    'the %s CRD is accepted by server-side apply (structural, CEL within budget) and Established',
    async (_, { kind }) => {
      const res = applied.get(kind.kind);
      expect(res, 'the CRD was not applied').toBeDefined();
      expect([200, 201], `apply refused: ${res?.status} ${res?.text}`).toContain(res?.status);
      expect(warningsOf(res?.headers ?? {}), 'the server warned about the CRD').toEqual([]);
      const crd = (await client.get<CrdObject>(resourcePaths(kind).crd)).body;
      expect(crd.metadata.managedFields).toContainEqual(
        expect.objectContaining({ manager: FieldManager, operation: 'Apply' }),
      );
      expect(conditionOf(crd, 'Established')).toBe('True');
      expect(conditionOf(crd, 'NamesAccepted')).toBe('True');
      expect(conditionOf(crd, 'NonStructuralSchema')).toBeUndefined();
      const generated = generateCrd(kind);
      const version = crd.spec.versions[0];
      expect(version?.additionalPrinterColumns).toEqual(kind.crd?.printerColumns);
      expect(version?.subresources).toEqual(generated.spec.versions[0]?.subresources);
      const names = generated.spec.names;
      expect(crd.status?.acceptedNames).toEqual({
        kind: names.kind,
        listKind: names.listKind,
        plural: names.plural,
        singular: names.singular,
        ...(names.shortNames ? { shortNames: names.shortNames } : {}),
        ...(names.categories ? { categories: names.categories } : {}),
      });
    },
  );

  it.each(subjects.map((s) => [s.kind.kind, s] as const))(
    '%s is in discovery with its categories, short names and subresources',
    async (_, { kind }) => {
      const paths = resourcePaths(kind);
      const crd = kind.crd!;
      interface ApiResource {
        name: string;
        kind: string;
        namespaced: boolean;
        verbs: string[];
        categories?: string[];
        shortNames?: string[];
      }
      let resources: ApiResource[] = [];
      await expect
        .poll(async () => {
          resources =
            (await client.get<{ resources?: ApiResource[] }>(paths.groupVersion)).body.resources ?? [];
          return resources.map((r) => r.name);
        }, poll)
        .toContain(crd.plural);
      const main = resources.find((r) => r.name === crd.plural);
      expect(main).toMatchObject({ kind: kind.kind, namespaced: false });
      expect(main?.categories).toEqual(crd.categories);
      expect(main?.shortNames).toEqual(crd.shortNames);
      expect(main?.verbs).toEqual(
        expect.arrayContaining(['create', 'get', 'list', 'watch', 'update', 'patch']),
      );
      const subresources = resources.filter((r) => r.name.startsWith(`${crd.plural}/`)).map((r) => r.name);
      const expected = [
        ...(crd.subresources?.status ? [`${crd.plural}/status`] : []),
        ...(crd.subresources?.scale ? [`${crd.plural}/scale`] : []),
      ];
      expect(subresources.sort()).toEqual(expected.sort());
    },
  );

  it.each(subjects.map((s) => [s.kind.kind, s] as const))(
    'the server prints %s with its printer columns (kubectl get)',
    async (_, subject) => {
      const { kind } = subject;
      const manifest = withNameSuffix(subject.example(), nextSuffix());
      try {
        const stored = await mustCreate(kind, manifest, 'the example');
        const status = await put(
          resourcePaths(kind).status(stored.metadata.name),
          withValue(stored, ['status'], subject.status),
        );
        expect(status.status, describeResponse(status)).toBe(200);
        const name = stored.metadata.name;
        const table = await rawRequest(
          connection,
          'GET',
          `${resourcePaths(kind).collection}?fieldSelector=metadata.name%3D${name}`,
          { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
        );
        expect(table.status, table.text).toBe(200);
        const body = table.body as {
          kind: string;
          columnDefinitions: { name: string; type: string; priority: number }[];
          rows: { cells: unknown[] }[];
        };
        expect(body.kind).toBe('Table');
        const columns = kind.crd?.printerColumns ?? [];
        expect(body.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
          ['Name', 'string', 0],
          ...columns.map((c) => [c.name, c.type, c.priority ?? 0]),
        ]);
        expect(body.rows).toHaveLength(1);
        const cells = body.rows[0]?.cells ?? [];
        expect(cells[0]).toBe(name);
        // The Ready column reads the status the /status update wrote.
        expect(cells[columns.findIndex((c) => c.name === 'Ready') + 1]).toBe('True');
      } finally {
        await remove(kind, nameOf(manifest));
      }
    },
  );
});

for (const subject of subjects) {
  describe(`${subject.kind.kind} rules on the API server`, () => {
    for (const ruleCase of subject.cases) {
      it(`${subject.kind.kind}: ${ruleCase.rule}`, async () => {
        if (ruleCase.old === undefined) await checkCreateRule(subject, ruleCase);
        else await checkTransitionRule(subject, ruleCase);
      });
    }
  });
}

interface DefaultsCase {
  readonly name: string;
  readonly kind: KindDefinition;
  readonly input: Manifest;
  /** `status` is written through the status subresource after the create. */
  readonly part: 'spec' | 'status';
}

const nodeClassRef = { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' };
const minimalNodePool = (): Manifest => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'minimal' },
  spec: { template: { spec: { nodeClassRef, requirements: [] } } },
});
const minimalEC2NodeClass = (): Manifest => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'minimal' },
  spec: {
    role: 'KarpenterNodeRole',
    amiSelectorTerms: [{ alias: 'al2023@latest' }],
    subnetSelectorTerms: [{ id: 'subnet-0a1b' }],
    securityGroupSelectorTerms: [{ id: 'sg-0a1b' }],
  },
});

const defaultsCases: readonly DefaultsCase[] = [
  { name: 'a minimal NodePool', kind: nodePoolKind, part: 'spec', input: minimalNodePool() },
  {
    name: 'a NodePool with a partial disruption block and a budget without nodes',
    kind: nodePoolKind,
    part: 'spec',
    input: withValue(minimalNodePool(), ['spec', 'disruption'], {
      consolidationPolicy: 'WhenEmpty',
      budgets: [{ schedule: '@daily', duration: '10m' }],
    }),
  },
  {
    name: 'a NodePool status without nodes',
    kind: nodePoolKind,
    part: 'status',
    input: withValue(minimalNodePool(), ['status'], { resources: { cpu: '0' } }),
  },
  {
    name: 'a minimal NodeClaim',
    kind: nodeClaimKind,
    part: 'spec',
    input: {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'minimal' },
      spec: { nodeClassRef, requirements: [] },
    },
  },
  { name: 'a minimal EC2NodeClass', kind: ec2NodeClassKind, part: 'spec', input: minimalEC2NodeClass() },
  {
    name: 'an EC2NodeClass with partial metadataOptions',
    kind: ec2NodeClassKind,
    part: 'spec',
    input: withValue(minimalEC2NodeClass(), ['spec', 'metadataOptions'], { httpTokens: 'optional' }),
  },
  {
    name: 'an EC2NodeClass status with a capacity reservation',
    kind: ec2NodeClassKind,
    part: 'status',
    input: withValue(minimalEC2NodeClass(), ['status'], {
      capacityReservations: [
        {
          availabilityZone: 'us-west-2a',
          id: 'cr-0a1b',
          instanceMatchCriteria: 'open',
          instanceType: 'm5.large',
          ownerID: '123456789012',
        },
      ],
    }),
  },
];

describe('defaults: the API server applies what the zod schema does', () => {
  for (const c of defaultsCases) {
    it(`${c.kind.kind}: ${c.name} (${c.part})`, async () => {
      const input = withNameSuffix(c.input, nextSuffix());
      const parsed = c.kind.schema.parse(input) as Record<string, unknown>;
      try {
        const stored = await mustCreate(c.kind, input, 'the input');
        if (c.part === 'status') {
          const res = await put(
            resourcePaths(c.kind).status(stored.metadata.name),
            withResourceVersion(input, stored),
          );
          expect(res.status, describeResponse(res)).toBe(200);
        }
        const server = await get(c.kind, stored.metadata.name);
        expect(
          server[c.part],
          `server-side defaults (received) vs ${c.kind.kind} schema parse (expected)`,
        ).toEqual(parsed[c.part]);
      } finally {
        await remove(c.kind, input.metadata.name);
      }
    });
  }
});

describe('status and scale subresources', () => {
  const touched = 'nodewright.dev/touched';

  it.each(subjects.map((s) => [s.kind.kind, s] as const))(
    '%s status is written through /status only',
    async (_, subject) => {
      const { kind } = subject;
      const paths = resourcePaths(kind);
      const manifest = withNameSuffix(subject.example(), nextSuffix()) as Manifest;
      try {
        const created = await mustCreate(kind, { ...manifest, status: subject.status }, 'the example');
        expect(created.status, 'a create keeps no status').toBeUndefined();
        const name = created.metadata.name;

        // Through /status: the status is kept, a spec change alongside it is not.
        const [specPath, specValue] = subject.specChange;
        const changedSpec = withValue(withValue(created, ['status'], subject.status), specPath, specValue);
        const viaStatus = await put(paths.status(name), changedSpec);
        expect(viaStatus.status, describeResponse(viaStatus)).toBe(200);
        const afterStatus = await get(kind, name);
        expect(afterStatus.status).toMatchObject(subject.status);
        expect(afterStatus.spec).toEqual(created.spec);
        expect(afterStatus.metadata.generation, 'a status update bumps no generation').toBe(
          created.metadata.generation,
        );

        // Through the main resource: a metadata change is kept, the status change is not.
        const other = withValue(afterStatus, ['status'], { conditions: [] });
        const viaMain = await put(
          paths.object(name),
          withValue(other, ['metadata', 'labels', touched], 'yes'),
        );
        expect(viaMain.status, describeResponse(viaMain)).toBe(200);
        const afterMain = await get(kind, name);
        expect(afterMain.metadata.labels?.[touched]).toBe('yes');
        expect(afterMain.status).toEqual(afterStatus.status);
      } finally {
        await remove(kind, manifest.metadata.name);
      }
    },
  );

  it('NodePool scale subresource reads spec.replicas and status.nodes and writes spec.replicas', async () => {
    const paths = resourcePaths(nodePoolKind);
    const manifest = withValue(
      withNameSuffix(exampleNodePool(), nextSuffix()),
      ['spec', 'replicas'],
      2,
    ) as Manifest;
    try {
      const stored = await mustCreate(nodePoolKind, manifest, 'a static NodePool');
      const name = stored.metadata.name;
      const status = await put(paths.status(name), withValue(stored, ['status'], { nodes: 1 }));
      expect(status.status, describeResponse(status)).toBe(200);

      interface Scale {
        apiVersion: string;
        kind: string;
        metadata: { name: string; resourceVersion: string };
        spec: { replicas?: number };
        status: { replicas: number };
      }
      const scale = await client.get<Scale>(paths.scale(name));
      expect(scale.status, describeResponse(scale)).toBe(200);
      expect(scale.body).toMatchObject({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        spec: { replicas: 2 },
        status: { replicas: 1 },
      });
      const scaled = await client.request<Scale>('PUT', paths.scale(name), {
        body: { ...scale.body, spec: { replicas: 5 } },
      });
      expect(scaled.status, describeResponse(scaled)).toBe(200);
      expect((await get(nodePoolKind, name)).spec).toMatchObject({ replicas: 5 });
    } finally {
      await remove(nodePoolKind, manifest.metadata.name);
    }
  });

  it('a dynamic NodePool cannot be scaled: its scale subresource refuses reads and writes', async () => {
    const paths = resourcePaths(nodePoolKind);
    const manifest = withNameSuffix(exampleNodePool(), nextSuffix()) as Manifest;
    try {
      const stored = await mustCreate(nodePoolKind, manifest, 'a dynamic NodePool');
      const name = stored.metadata.name;
      // The server cannot read a Scale without spec.replicas (kube-apiserver answers 500).
      const read = await client.get(paths.scale(name));
      expect(read.status, describeResponse(read)).toBeGreaterThanOrEqual(400);
      const write = await client.request('PUT', paths.scale(name), {
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name, resourceVersion: stored.metadata.resourceVersion },
          spec: { replicas: 3 },
        },
      });
      const patch = await client.request('PATCH', paths.scale(name), {
        body: { spec: { replicas: 3 } },
        contentType: 'application/merge-patch+json',
      });
      // Writing one would add spec.replicas: the transition rule refuses it.
      for (const res of [write, patch]) {
        expect(res.status, describeResponse(res)).toBe(422);
        expect(rejectionOf(res).causes).toContainEqual(
          expect.objectContaining({
            field: 'spec',
            message: expect.stringContaining('replicas cannot be added or removed'),
          }),
        );
      }
      expect((await get(nodePoolKind, name)).spec).not.toHaveProperty('replicas');
    } finally {
      await remove(nodePoolKind, manifest.metadata.name);
    }
  });
});
