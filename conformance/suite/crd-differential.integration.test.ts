import { randomUUID } from 'node:crypto';
// @nodewright/aws is not (yet) a dependency of @nodewright/conformance; imported by path.
import { ec2NodeClassKind, exampleEC2NodeClass } from '@nodewright/aws';
import {
  exampleNodeClaim,
  exampleNodePool,
  formatFieldPath,
  type KindDefinition,
  nodeClaimKind,
  nodePoolKind,
  renderCrdYaml,
  withValue,
} from '@nodewright/core/apis';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KubeHttpClient, loadKubeconfig } from '../cluster/src/index.js';
import {
  compareVerdicts,
  type Disagreement,
  rejectionOf,
  resourcePaths,
  type SideVerdict,
  waitUntil,
} from './src/index.js';

// Differential check of each CRD against its zod schema: manifests built from values near
// the rules' edges are parsed by the schema and dry-run created on the API server; both
// must accept, or both refuse at a shared field. The rule cases prove each rule once; this
// looks for the inputs where a rule's CEL and its TypeScript, a JavaScript and an RE2 regex,
// or zod's and the server's idea of an integer or a date-time part ways. First every edge
// value alone on a valid example, then (fast-check, fixed seed) combinations for the rules
// that relate several fields.

const cluster = inject('nodewrightCluster');
const runId = randomUUID().slice(0, 8);
const numRuns = 300;
// Fixed, so a run is reproducible and a failure is the same on every machine.
const seed = 20_240_102;
let client: KubeHttpClient;

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });

/** The schema's and the server's verdicts on one manifest; undefined when they agree. */
async function disagreementOn(kind: KindDefinition, manifest: unknown): Promise<Disagreement | undefined> {
  const parsed = kind.schema.safeParse(manifest);
  const res = await client.request(
    'POST',
    `${resourcePaths(kind).collection}?dryRun=All&fieldValidation=Strict`,
    {
      body: manifest,
    },
  );
  if (![201, 400, 422].includes(res.status)) throw new Error(`unexpected answer ${res.status}: ${res.text}`);
  const nodewright: SideVerdict = parsed.success
    ? { accepts: true, problems: [] }
    : {
        accepts: false,
        problems: parsed.error.issues.map((i) => ({ field: formatFieldPath(i.path), message: i.message })),
      };
  const server: SideVerdict =
    res.status === 201
      ? { accepts: true, problems: [] }
      : { accepts: false, problems: rejectionOf(res).causes };
  return compareVerdicts(nodewright, server);
}

/**
 * Samples `numRuns` values of the arbitrary, builds a manifest from each and fails listing
 * every distinct disagreement found, each with its smallest example, and the seed.
 */
async function expectAgreement<T>(kind: KindDefinition, arb: fc.Arbitrary<T>, build: (value: T) => unknown) {
  await expectAgreementOn(kind, fc.sample(arb, { numRuns, seed }), build, `fast-check seed ${seed}`);
}

/** Fails listing every distinct disagreement among the manifests built from `values`. */
async function expectAgreementOn<T>(
  kind: KindDefinition,
  values: readonly T[],
  build: (value: T) => unknown,
  origin: string,
) {
  const found = new Map<string, { size: number; text: string }>();
  for (const value of values) {
    // Through JSON, so both sides see the same document (no undefined members).
    const manifest = JSON.parse(JSON.stringify(build(value))) as { spec?: unknown };
    const disagreement = await disagreementOn(kind, manifest);
    if (disagreement === undefined) continue;
    const spec = asciiJson(manifest.spec);
    const known = found.get(disagreement.signature);
    if (known === undefined || spec.length < known.size) {
      found.set(disagreement.signature, {
        size: spec.length,
        text: `${disagreement.description}\n  spec: ${spec}`,
      });
    }
  }
  if (found.size > 0) {
    const list = [...found.values()].map((f) => f.text).join('\n\n');
    expect.fail(
      `${kind.kind}: ${found.size} disagreement(s) between the CRD and the zod schema (${origin}):\n\n${list}`,
    );
  }
}

/** JSON with every non-ASCII character escaped, so a no-break space shows as \\u00a0. */
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

const named = <T>(manifest: T): T => withValue(manifest, ['metadata', 'name'], `differential-${runId}`);

// Values near the edges of the rules: restricted label domains and their look-alikes,
// numbers CEL and JavaScript read differently, RE2 versus ECMAScript whitespace, integers
// at the int32 and float64 limits, date-times Date.parse and Go read differently.
const LabelKeys = [
  'team',
  'example.com/team',
  'kubernetes.io/arch',
  'kubernetes.io/hostname',
  'kubernetes.io/team',
  'kubernetes.io',
  'node.kubernetes.io/pool',
  'a.node.kubernetes.io/pool',
  'node-restriction.kubernetes.io/team',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/rack',
  'notkubernetes.io/x',
  'beta.kubernetes.io/arch',
  'failure-domain.beta.kubernetes.io/zone',
  'k8s.io/team',
  'kops.k8s.io/ig',
  'a.kops.k8s.io/ig',
  'notk8s.io/x',
  'karpenter.sh/nodepool',
  'karpenter.sh/capacity-type',
  'karpenter.sh/team',
  'a.karpenter.sh/team',
  'karpenter.k8s.aws/instance-family',
  'Example.com/team',
  'a/b/c',
  'team name',
  '-team',
  'team\n',
  `example.com/${'a'.repeat(63)}`,
  `example.com/${'a'.repeat(64)}`,
  `${'a'.repeat(250)}.io/x`,
];
const LabelValues = ['x', '', 'web', 'a b', 'a'.repeat(63), 'a'.repeat(64), '-x', 'x_', 'é', 'x\n'];
const RequirementValues = [
  'a',
  'spot',
  'on-demand',
  'reserved',
  'cheap',
  '0',
  '01',
  '-1',
  '+1',
  '1.5',
  '1e3',
  '999999999999999999',
  '9999999999999999999',
  '',
  'a b',
];
const DateTimes = [
  '2024-01-02T15:04:05Z',
  '2024-01-02T15:04:05.123456Z',
  '2024-01-02t15:04:05Z',
  '2024-01-02T15:04:05z',
  '2024-01-02 15:04:05Z',
  '2024-01-02 15:04:05',
  '2024-01-02T15:04:05',
  '2024-01-02',
  '2024-01-02T15:04Z',
  '2024-01-02T15:04:05+01:00',
  '2024-01-02T15:04:05+0100',
  '2024-01-02T15:04:05+24:00',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-01-02T24:00:00Z',
  '2024-01-02T15:04:60Z',
  'yesterday',
];
const Durations = [
  '0s',
  '720h',
  '1h30m',
  '1h0m0s',
  'Never',
  'never',
  '30d',
  '',
  '1.5h',
  '-1h',
  '10ms',
  '1H',
  '0',
  ' 1h',
];
const Crons = [
  '@daily',
  '@annually',
  '@every-hour',
  '@reboot',
  '0 9 * * mon-fri',
  '0 9 * * MON-FRI',
  '0 25 * * *',
  '*/5 * * * *',
  '*/0 * * * *',
  '0 0 31 2 *',
  '0 0 * * 7',
  '0 0 ? * *',
  '0\t9 * * *',
  '0  9 * * *',
  ' 0 9 * * *',
  '0 9 * * * ',
  '0\u00a09 * * *',
  '0\v9 * * *',
  '0 9 * *',
  '0 9 * * * *',
  '5-1 * * * *',
  '0 0 L * *',
  '0 0 * jan,FEB *',
  '0 0 0 * *',
];
const BudgetNodes = ['10%', '0', '5', '100%', '101%', '0%', '1000', '-1', '5.5', ''];
const BudgetDurations = [
  '10m',
  '1h30m',
  '1h',
  '0m',
  '90s',
  '1h0m0s',
  '10m0s',
  '1h30m0s',
  '1m30s',
  '1d',
  '30',
];
const Quantities: unknown[] = [
  '1',
  1,
  1.5,
  -1,
  '1.5',
  '500m',
  '4Gi',
  '4 GB',
  '-1',
  '+1',
  '1e3',
  '1E3',
  '0x10',
  '1.',
  '.5',
  '1k',
  '1K',
  '1ki',
];
const Int32Edges = [-2147483649, -1, 0, 1, 2147483647, 2147483648];
const Int64Edges = [-1, 0, 2147483648, 2 ** 53 - 1, 2 ** 53];
const Aliases = [
  'al2023@latest',
  'al2@v20240625',
  'bottlerocket@v1.20.0',
  'windows2019@latest',
  'windows2022@v1',
  'windows2025@latest@x',
  'al2023@',
  '@latest',
  'al2023',
  'ubuntu@latest',
  'AL2023@latest',
  'al2023@latest@v2',
  'al2023@ latest',
  'al2023@latest\n',
  `al2023@v${'1'.repeat(22)}`,
  `al2023@v${'1'.repeat(23)}`,
];
const TagKeys = [
  'Name',
  '',
  'kubernetes.io/cluster/prod',
  'kubernetes.io/cluster',
  'kubernetes.io/clusterx',
  'kubernetes.io/role',
  'eks:eks-cluster-name',
  'eks:team',
  'karpenter.sh/nodepool',
  'karpenter.sh/nodeclaim',
  'karpenter.sh/managed-by',
  'karpenter.k8s.aws/ec2nodeclass',
];
const Signals = ['memory.available', 'nodefs.available', 'pid.available', 'cpu.available'];
const Thresholds = [
  '5%',
  '100%',
  '100.0%',
  '100.00%',
  '100.000%',
  '101%',
  '99.99%',
  '99.999%',
  '0.5%',
  '.5%',
  '5.%',
  '10Gi',
  '-1Gi',
  '%',
];
const GracePeriods = [
  '1m',
  '1m30s',
  '90s',
  '1.5m',
  '10µs',
  '10us',
  '1ns',
  '1h2m3s4ms',
  'soon',
  '',
  '0',
  '1d',
];
const Reserved = ['100m', '1Gi', '0.5', '-1', '+1', '-0', 'half', '1e3'];
const VolumeSizes = [
  '20Gi',
  '100',
  '65T',
  '64T',
  '1Ti',
  '58Ti',
  '59Ti',
  '0Gi',
  '59000Gi',
  '59001Gi',
  '020Gi',
];

const labelKey = pick(...LabelKeys);
const requirement = fc.record(
  {
    key: labelKey,
    operator: pick('In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte'),
    values: maybe(fc.array(pick(...RequirementValues), { maxLength: 3 })),
    minValues: maybe(fc.integer({ min: 0, max: 3 })),
  },
  { requiredKeys: ['key', 'operator'] },
);
const taint = fc.record(
  {
    key: pick('a', 'b', 'example.com/x', '', 'a b', 'A'),
    effect: pick('NoSchedule', 'PreferNoSchedule', 'NoExecute', 'NoRun'),
    value: maybe(pick('v', '', 'a b')),
    timeAdded: maybe(pick(...DateTimes)),
  },
  { requiredKeys: ['key', 'effect'] },
);
const budget = fc.record(
  {
    nodes: maybe(pick(...BudgetNodes)),
    schedule: maybe(pick(...Crons)),
    duration: maybe(pick(...BudgetDurations)),
    reasons: maybe(fc.array(pick('Underutilized', 'Empty', 'Drifted', 'Expired'), { maxLength: 3 })),
  },
  { requiredKeys: [] },
);

type Path = readonly (string | number)[];
/** Edge values of one field, each set alone on a valid example. */
interface FieldValues {
  readonly name: string;
  readonly kind: KindDefinition;
  readonly base: () => unknown;
  readonly path: Path;
  readonly values: readonly unknown[];
}

const pool = () => named(exampleNodePool());
const claim = () => named(exampleNodeClaim());
const nodeClass = () => named(exampleEC2NodeClass());
const template = ['spec', 'template', 'spec'] as const;
const customAmi = () => withValue(nodeClass(), ['spec', 'amiFamily'], 'Custom');
const req = (key: string, operator: string, values?: unknown[]) => [
  { key, operator, ...(values ? { values } : {}) },
];

const singleValues: readonly FieldValues[] = [
  {
    name: 'requirement key',
    kind: nodePoolKind,
    base: pool,
    path: [...template, 'requirements'],
    values: LabelKeys.map((k) => req(k, 'Exists')),
  },
  {
    name: 'In values',
    kind: nodePoolKind,
    base: pool,
    path: [...template, 'requirements'],
    values: RequirementValues.map((v) => req('a.io/b', 'In', [v])),
  },
  {
    name: 'Gt value',
    kind: nodePoolKind,
    base: pool,
    path: [...template, 'requirements'],
    values: RequirementValues.map((v) => req('a.io/b', 'Gt', [v])),
  },
  {
    name: 'template label key',
    kind: nodePoolKind,
    base: pool,
    path: ['spec', 'template', 'metadata', 'labels'],
    values: LabelKeys.map((k) => ({ [k]: 'x' })),
  },
  {
    name: 'template label value',
    kind: nodePoolKind,
    base: pool,
    path: ['spec', 'template', 'metadata', 'labels'],
    values: LabelValues.map((v) => ({ team: v })),
  },
  {
    name: 'taint timeAdded',
    kind: nodePoolKind,
    base: pool,
    path: [...template, 'taints'],
    values: DateTimes.map((t) => [{ key: 'a', effect: 'NoExecute', timeAdded: t }]),
  },
  {
    name: 'expireAfter',
    kind: nodePoolKind,
    base: pool,
    path: [...template, 'expireAfter'],
    values: Durations,
  },
  {
    name: 'terminationGracePeriod',
    kind: nodePoolKind,
    base: pool,
    path: [...template, 'terminationGracePeriod'],
    values: Durations,
  },
  {
    name: 'consolidateAfter',
    kind: nodePoolKind,
    base: pool,
    path: ['spec', 'disruption', 'consolidateAfter'],
    values: Durations,
  },
  {
    name: 'budget nodes',
    kind: nodePoolKind,
    base: pool,
    path: ['spec', 'disruption', 'budgets'],
    values: BudgetNodes.map((n) => [{ nodes: n }]),
  },
  {
    name: 'budget schedule',
    kind: nodePoolKind,
    base: pool,
    path: ['spec', 'disruption', 'budgets'],
    values: Crons.map((c) => [{ nodes: '1', schedule: c, duration: '10m' }]),
  },
  {
    name: 'budget duration',
    kind: nodePoolKind,
    base: pool,
    path: ['spec', 'disruption', 'budgets'],
    values: BudgetDurations.map((d) => [{ nodes: '1', schedule: '@daily', duration: d }]),
  },
  {
    name: 'limits',
    kind: nodePoolKind,
    base: pool,
    path: ['spec', 'limits'],
    values: Quantities.map((q) => ({ cpu: q })),
  },
  {
    name: 'weight',
    kind: nodePoolKind,
    base: pool,
    path: ['spec', 'weight'],
    values: [...Int32Edges, 50, 100, 101],
  },
  { name: 'replicas', kind: nodePoolKind, base: pool, path: ['spec', 'replicas'], values: Int64Edges },
  {
    name: 'requirement key',
    kind: nodeClaimKind,
    base: claim,
    path: ['spec', 'requirements'],
    values: LabelKeys.map((k) => req(k, 'Exists')),
  },
  {
    name: 'requests',
    kind: nodeClaimKind,
    base: claim,
    path: ['spec', 'resources', 'requests'],
    values: Quantities.map((q) => ({ cpu: q })),
  },
  {
    name: 'alias',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'amiSelectorTerms'],
    values: Aliases.map((a) => [{ alias: a }]),
  },
  {
    name: 'AMI id',
    kind: ec2NodeClassKind,
    base: customAmi,
    path: ['spec', 'amiSelectorTerms'],
    values: ['ami-0a1b', 'image-0a1b', 'ami-', 'ami-0A1B', 'ami-0a1b\n'].map((id) => [{ id }]),
  },
  {
    name: 'subnet id',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'subnetSelectorTerms'],
    values: ['subnet-0a1b', 'sg-0a1b', 'subnet-', 'subnet-0A1B'].map((id) => [{ id }]),
  },
  {
    name: 'tag key',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'tags'],
    values: TagKeys.map((k) => ({ [k]: 'x' })),
  },
  {
    name: 'maxPods',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'kubelet', 'maxPods'],
    values: Int32Edges,
  },
  {
    name: 'evictionMaxPodGracePeriod',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'kubelet', 'evictionMaxPodGracePeriod'],
    values: Int32Edges,
  },
  {
    name: 'systemReserved',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'kubelet', 'systemReserved'],
    values: Reserved.map((r) => ({ memory: r })),
  },
  {
    name: 'evictionHard',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'kubelet', 'evictionHard'],
    values: Thresholds.map((t) => ({ 'memory.available': t })),
  },
  {
    name: 'evictionSoftGracePeriod',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'kubelet'],
    values: GracePeriods.map((g) => ({
      evictionSoft: { 'memory.available': '5%' },
      evictionSoftGracePeriod: { 'memory.available': g },
    })),
  },
  {
    name: 'volumeSize',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'blockDeviceMappings'],
    values: VolumeSizes.map((v) => [{ deviceName: '/dev/xvda', ebs: { volumeSize: v } }]),
  },
  {
    name: 'iops',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'blockDeviceMappings'],
    values: Int64Edges.map((iops) => [{ deviceName: '/dev/xvda', ebs: { volumeSize: '20Gi', iops } }]),
  },
  {
    name: 'ipPrefixCount',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'ipPrefixCount'],
    values: Int32Edges,
  },
  {
    name: 'networkCardIndex',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'networkInterfaces'],
    values: Int32Edges.map((i) => [
      { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' },
      { networkCardIndex: i, deviceIndex: 1, interfaceType: 'interface' },
    ]),
  },
  {
    name: 'capacity reservation ownerID',
    kind: ec2NodeClassKind,
    base: nodeClass,
    path: ['spec', 'capacityReservationSelectorTerms'],
    values: ['123456789012', '1234', '1234567890123', '12345678901a'].map((ownerID) => [
      { tags: { a: 'b' }, ownerID },
    ]),
  },
];

describe('CRDs and zod schemas agree on generated manifests (dry-run creates)', () => {
  beforeAll(async () => {
    client = new KubeHttpClient(await loadKubeconfig(cluster.kubeconfigPath));
    for (const kind of [nodePoolKind, nodeClaimKind, ec2NodeClassKind]) {
      const paths = resourcePaths(kind);
      const res = await client.request('PATCH', paths.applyCrd('nodewright'), {
        body: renderCrdYaml(kind),
        contentType: 'application/apply-patch+yaml',
      });
      if (res.status >= 300) throw new Error(`applying ${paths.crdName}: ${res.status} ${res.text}`);
      await waitUntil(
        async () => (await client.get(paths.collection)).status,
        (status) => status === 200,
        { timeoutMs: 60_000, intervalMs: 250, what: `${paths.collection} served` },
      );
    }
  });

  afterAll(() => client?.close());

  for (const field of singleValues) {
    it(`${field.kind.kind} ${field.name}: each edge value alone`, async () => {
      await expectAgreementOn(
        field.kind,
        field.values,
        (value) => withValue(field.base(), field.path, value),
        `${field.values.length} values at ${field.path.join('.')}`,
      );
    });
  }

  it('NodePool requirements', async () => {
    await expectAgreement(nodePoolKind, fc.array(requirement, { maxLength: 3 }), (reqs) =>
      withValue(pool(), [...template, 'requirements'], reqs),
    );
  });

  it('NodePool template labels', async () => {
    await expectAgreement(
      nodePoolKind,
      fc.dictionary(labelKey, pick(...LabelValues), { maxKeys: 3 }),
      (labels) => withValue(pool(), ['spec', 'template', 'metadata', 'labels'], labels),
    );
  });

  it('NodePool taints and startup taints', async () => {
    const taints = fc.record({
      taints: maybe(fc.array(taint, { maxLength: 3 })),
      startupTaints: maybe(fc.array(taint, { maxLength: 2 })),
    });
    await expectAgreement(nodePoolKind, taints, (t) =>
      withValue(
        withValue(pool(), [...template, 'taints'], t.taints),
        [...template, 'startupTaints'],
        t.startupTaints,
      ),
    );
  });

  it('NodePool durations, budgets and consolidation', async () => {
    const duration = pick(...Durations);
    const disruption = fc.record({
      expireAfter: maybe(duration),
      terminationGracePeriod: maybe(duration),
      consolidateAfter: maybe(duration),
      consolidationPolicy: maybe(pick('WhenEmpty', 'WhenEmptyOrUnderutilized', 'WhenUnderutilized')),
      budgets: maybe(fc.array(budget, { maxLength: 3 })),
    });
    await expectAgreement(nodePoolKind, disruption, (d) => {
      let m = withValue(pool(), [...template, 'expireAfter'], d.expireAfter);
      m = withValue(m, [...template, 'terminationGracePeriod'], d.terminationGracePeriod);
      return withValue(m, ['spec', 'disruption'], {
        consolidateAfter: d.consolidateAfter,
        consolidationPolicy: d.consolidationPolicy,
        budgets: d.budgets,
      });
    });
  });

  it('NodePool replicas, weight and limits', async () => {
    const spec = fc.record({
      replicas: maybe(pick(-1, 0, 3, 2147483648)),
      weight: maybe(pick(0, 1, 100, 101)),
      limits: maybe(
        pick({}, { nodes: '5' }, { nodes: 5 }, { cpu: '10' }, { nodes: '5', cpu: 1 }, { cpu: 'lots' }),
      ),
    });
    await expectAgreement(nodePoolKind, spec, (s) => withValue(pool(), ['spec'], { ...pool().spec, ...s }));
  });

  it('NodeClaim requirements, requests and taints', async () => {
    const parts = fc.record({
      requirements: fc.array(requirement, { maxLength: 3 }),
      requests: maybe(
        fc.dictionary(pick('cpu', 'memory', 'pods', 'nvidia.com/gpu'), pick(...Quantities), { maxKeys: 2 }),
      ),
      taints: maybe(fc.array(taint, { maxLength: 2 })),
      expireAfter: maybe(pick(...Durations)),
    });
    await expectAgreement(nodeClaimKind, parts, (c) => {
      const base = claim();
      return withValue(base, ['spec'], {
        ...base.spec,
        requirements: c.requirements,
        resources: c.requests === undefined ? undefined : { requests: c.requests },
        taints: c.taints,
        expireAfter: c.expireAfter,
      });
    });
  });

  const tagMap = pick({ Name: 'x' }, {}, { '': 'x' }, { Name: '' }, { Name: '*' });

  it('EC2NodeClass AMI selection and family', async () => {
    const term = fc.record(
      {
        alias: maybe(pick(...Aliases)),
        id: maybe(pick('ami-0a1b', 'image-0a1b', 'ami-', 'ami-0A1B')),
        name: maybe(pick('my-ami-*', '')),
        owner: maybe(pick('self', '')),
        ssmParameter: maybe(pick('/aws/service/x', '')),
        tags: maybe(tagMap),
      },
      { requiredKeys: [] },
    );
    const ami = fc.record({
      amiFamily: maybe(
        pick(
          'AL2',
          'AL2023',
          'Bottlerocket',
          'Custom',
          'Windows2019',
          'Windows2022',
          'Windows2025',
          'Ubuntu',
        ),
      ),
      amiSelectorTerms: fc.array(term, { maxLength: 3 }),
    });
    await expectAgreement(ec2NodeClassKind, ami, (a) =>
      withValue(nodeClass(), ['spec'], { ...nodeClass().spec, ...a }),
    );
  });

  it('EC2NodeClass role, instance profile, tags and selector terms', async () => {
    const spec = fc.record({
      role: maybe(pick('KarpenterNodeRole', '')),
      instanceProfile: maybe(pick('KarpenterNodeInstanceProfile', '')),
      tags: maybe(fc.dictionary(pick(...TagKeys), pick('x', ''), { maxKeys: 2 })),
      subnetSelectorTerms: fc.array(
        fc.record(
          { id: maybe(pick('subnet-0a1b', 'sg-0a1b', 'subnet-', 'subnet-0A1B')), tags: maybe(tagMap) },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
      securityGroupSelectorTerms: fc.array(
        fc.record(
          { id: maybe(pick('sg-0a1b', 'subnet-0a1b')), name: maybe(pick('nodes', '')), tags: maybe(tagMap) },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
      capacityReservationSelectorTerms: maybe(
        fc.array(
          fc.record(
            {
              id: maybe(pick('cr-0a1b', 'cr-')),
              ownerID: maybe(pick('123456789012', '1234', '1234567890123')),
              instanceMatchCriteria: maybe(pick('open', 'targeted', 'closed')),
              tags: maybe(tagMap),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      ),
      placementGroupSelector: maybe(
        fc.record({ name: maybe(pick('pg', '')), id: maybe(pick('pg-0a1b', 'pg-')) }, { requiredKeys: [] }),
      ),
    });
    await expectAgreement(ec2NodeClassKind, spec, (s) => {
      const base = nodeClass().spec as Record<string, unknown>;
      const { role: _, ...rest } = base;
      return withValue(nodeClass(), ['spec'], { ...rest, ...s });
    });
  });

  it('EC2NodeClass kubelet', async () => {
    const signal = pick(...Signals);
    const threshold = pick(...Thresholds);
    const grace = pick(...GracePeriods);
    const reserved = fc.dictionary(
      pick('cpu', 'memory', 'pid', 'gpu'),
      pick('100m', '1Gi', '0.5', '-1', '+1', '-0', 'half', '1e3'),
      {
        maxKeys: 2,
      },
    );
    const kubelet = fc.record(
      {
        maxPods: maybe(pick(...Int32Edges, 110)),
        podsPerCore: maybe(pick(-1, 0, 10)),
        systemReserved: maybe(reserved),
        kubeReserved: maybe(reserved),
        evictionHard: maybe(fc.dictionary(signal, threshold, { maxKeys: 2 })),
        evictionSoft: maybe(fc.dictionary(signal, threshold, { maxKeys: 2 })),
        evictionSoftGracePeriod: maybe(fc.dictionary(signal, grace, { maxKeys: 2 })),
        imageGCHighThresholdPercent: maybe(pick(0, 50, 80, 85, 100, 101)),
        imageGCLowThresholdPercent: maybe(pick(-1, 0, 50, 80, 85, 100)),
      },
      { requiredKeys: [] },
    );
    await expectAgreement(ec2NodeClassKind, kubelet, (k) => withValue(nodeClass(), ['spec', 'kubelet'], k));
  });

  it('EC2NodeClass block devices, network interfaces, metadata options and connection tracking', async () => {
    const ebs = fc.record(
      {
        volumeSize: maybe(
          pick('20Gi', '100', '65T', '64T', '1Ti', '58Ti', '59Ti', '0Gi', '59000Gi', '59001Gi', '020Gi'),
        ),
        snapshotID: maybe(pick('snap-0a1b', '')),
        volumeType: maybe(pick('gp3', 'gp4', 'io2')),
        volumeInitializationRate: maybe(pick(99, 100, 300, 301)),
      },
      { requiredKeys: [] },
    );
    const spec = fc.record({
      blockDeviceMappings: maybe(
        fc.array(
          fc.record(
            {
              deviceName: maybe(pick('/dev/xvda', '/dev/xvdb')),
              rootVolume: maybe(fc.boolean()),
              ebs: maybe(ebs),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
      ),
      networkInterfaces: maybe(
        fc.array(
          fc.record({
            networkCardIndex: pick(0, 1, -1),
            deviceIndex: pick(0, 1),
            interfaceType: pick('interface', 'efa-only', 'efa'),
          }),
          { maxLength: 3 },
        ),
      ),
      metadataOptions: maybe(
        fc.record(
          {
            httpEndpoint: maybe(pick('enabled', 'disabled', 'off')),
            httpProtocolIPv6: maybe(pick('enabled', 'disabled')),
            httpPutResponseHopLimit: maybe(pick(0, 1, 64, 65)),
            httpTokens: maybe(pick('required', 'optional', 'disabled')),
          },
          { requiredKeys: [] },
        ),
      ),
      connectionTracking: maybe(
        fc.record(
          {
            tcpEstablishedTimeout: maybe(pick(59, 60, 432000, 432001)),
            udpStreamTimeout: maybe(pick(59, 60, 180, 181)),
            udpTimeout: maybe(pick(29, 30, 60, 61)),
          },
          { requiredKeys: [] },
        ),
      ),
      ipPrefixCount: maybe(pick(-1, 0, 2)),
      instanceStorePolicy: maybe(pick('RAID0', 'RAID1')),
    });
    await expectAgreement(ec2NodeClassKind, spec, (s) =>
      withValue(nodeClass(), ['spec'], { ...nodeClass().spec, ...s }),
    );
  });

  it('sees a refusal on both sides as agreement only at a shared field', async () => {
    // Guards the comparison itself: a NodePool both sides refuse, at the same field.
    const manifest = JSON.parse(JSON.stringify(withValue(pool(), ['spec', 'weight'], 101)));
    expect(nodePoolKind.schema.safeParse(manifest).success).toBe(false);
    expect(await disagreementOn(nodePoolKind, manifest)).toBeUndefined();
  });
});
