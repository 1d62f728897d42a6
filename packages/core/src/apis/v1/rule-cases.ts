import { LabelValueMessage, QualifiedNameMessage } from '../common/primitives.js';
import { exampleNodeClaim, exampleNodePool, withValue } from './examples.js';
import { RestrictedLabelRules } from './restricted-labels.js';

/**
 * One validation rule shown by example: a manifest that obeys it and the same manifest
 * breaking only it. The unit tests check nodewright's schema against these; a conformance
 * suite can apply them to a real API server to check the CRD says the same.
 */
export interface RuleCase {
  /** The rule, in words. */
  readonly rule: string;
  readonly valid: unknown;
  readonly invalid: unknown;
  /** For transition rules: the stored object that `valid` and `invalid` update. */
  readonly old?: unknown;
  /** Where nodewright reports the problem (Kubernetes field-path syntax). */
  readonly path: string;
  /** What nodewright says. */
  readonly message: string;
  /**
   * Where the API server reports it, when that differs: a CEL rule on a map or list reports
   * the whole map or list, and the server validates metadata itself.
   */
  readonly serverPath?: string;
}

type Path = readonly (string | number)[];

const Template = ['spec', 'template', 'spec'] as const;
const Requirements = [...Template, 'requirements'] as const;
const Labels = ['spec', 'template', 'metadata', 'labels'] as const;
const Budget = ['spec', 'disruption', 'budgets', 0] as const;

function messageOf(name: string): string {
  const rule = RestrictedLabelRules.find((r) => r.name === name);
  if (rule === undefined) throw new Error(`no restricted-label rule ${name}`);
  return rule.message;
}

/**
 * A case that sets one value of `base` (at `path`) to something valid, then to something
 * invalid; provider packages build their NodeClass tables with it too.
 */
export function valueCase(
  base: unknown,
  rule: string,
  path: Path,
  valid: unknown,
  invalid: unknown,
  where: string,
  message: string,
  serverPath?: string,
): RuleCase {
  return {
    rule,
    valid: withValue(base, path, valid),
    invalid: withValue(base, path, invalid),
    path: where,
    message,
    ...(serverPath === undefined ? {} : { serverPath }),
  };
}

/**
 * A case that merges `valid`, then `invalid`, into the spec of a fresh `base()`: for rules
 * relating several fields of a NodeClass spec.
 */
export function specCase(
  base: () => { readonly spec: object },
  rule: string,
  valid: object,
  invalid: object,
  where: string,
  message: string,
): RuleCase {
  const spec = base().spec;
  return {
    rule,
    valid: withValue(base(), ['spec'], { ...spec, ...valid }),
    invalid: withValue(base(), ['spec'], { ...spec, ...invalid }),
    path: where,
    message,
  };
}

/** A case that sets one value of the example NodePool to something valid, then invalid. */
function npCase(
  rule: string,
  path: Path,
  valid: unknown,
  invalid: unknown,
  where: string,
  message: string,
  serverPath?: string,
): RuleCase {
  return valueCase(exampleNodePool(), rule, path, valid, invalid, where, message, serverPath);
}

/** A case about the first requirement of the example NodePool. */
function reqCase(rule: string, valid: object, invalid: object, field: string, message: string): RuleCase {
  return npCase(
    rule,
    [...Requirements, 0],
    valid,
    invalid,
    `spec.template.spec.requirements[0]${field}`,
    message,
  );
}

function labelCase(rule: string, validKey: string, invalidKey: string, message: string): RuleCase {
  const base = exampleNodePool();
  return {
    rule,
    valid: withValue(base, [...Labels, validKey], 'x'),
    invalid: withValue(base, [...Labels, invalidKey], 'x'),
    path: `spec.template.metadata.labels[${JSON.stringify(invalidKey)}]`,
    message,
    serverPath: 'spec.template.metadata.labels',
  };
}

const taint = (key: string, effect = 'NoSchedule', value?: string) => ({
  key,
  effect,
  ...(value ? { value } : {}),
});

const Operators = 'must be one of In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte';
const Numeric = 'operators Gt, Lt, Gte and Lte need exactly one value, a non-negative integer';

/** Every NodePool rule the CRD enforces, by example. */
export const nodePoolRuleCases: readonly RuleCase[] = [
  // Requirements.
  reqCase(
    'operator is one of the eight',
    { key: 'a.io/b', operator: 'NotIn', values: ['x'] },
    { key: 'a.io/b', operator: 'Equals', values: ['x'] },
    '.operator',
    Operators,
  ),
  reqCase(
    'requirement key is a qualified name',
    { key: 'example.com/team', operator: 'Exists' },
    { key: 'team name', operator: 'Exists' },
    '.key',
    QualifiedNameMessage,
  ),
  reqCase(
    'requirement key name part is at most 63 characters',
    { key: `example.com/${'a'.repeat(63)}`, operator: 'Exists' },
    { key: `example.com/${'a'.repeat(64)}`, operator: 'Exists' },
    '.key',
    QualifiedNameMessage,
  ),
  reqCase(
    'requirement key outside restricted kubernetes.io',
    { key: 'node-restriction.kubernetes.io/team', operator: 'Exists' },
    { key: 'kubernetes.io/team', operator: 'Exists' },
    '.key',
    messageOf('kubernetes.io domain'),
  ),
  reqCase(
    'requirement key well-known in kubernetes.io',
    { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] },
    { key: 'topology.kubernetes.io/rack', operator: 'In', values: ['a'] },
    '.key',
    messageOf('kubernetes.io domain'),
  ),
  reqCase(
    'requirement key outside restricted k8s.io',
    { key: 'kops.k8s.io/instancegroup', operator: 'Exists' },
    { key: 'example.k8s.io/team', operator: 'Exists' },
    '.key',
    messageOf('k8s.io domain'),
  ),
  reqCase(
    'requirement key outside restricted karpenter.sh',
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
    { key: 'karpenter.sh/team', operator: 'Exists' },
    '.key',
    messageOf('karpenter.sh domain'),
  ),
  reqCase(
    'requirement key is not the nodepool label',
    { key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m5'] },
    { key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] },
    '.key',
    messageOf('nodepool label'),
  ),
  reqCase(
    'requirement key is not the hostname label',
    { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
    { key: 'kubernetes.io/hostname', operator: 'In', values: ['a'] },
    '.key',
    messageOf('hostname label'),
  ),
  reqCase(
    'In needs values',
    { key: 'a.io/b', operator: 'In', values: ['x'] },
    { key: 'a.io/b', operator: 'In', values: [] },
    '.values',
    'operator In needs at least one value',
  ),
  reqCase(
    'In needs values (none given)',
    { key: 'a.io/b', operator: 'In', values: ['x'] },
    { key: 'a.io/b', operator: 'In' },
    '.values',
    'operator In needs at least one value',
  ),
  reqCase(
    'Gt takes an integer',
    { key: 'a.io/cpu', operator: 'Gt', values: ['4'] },
    { key: 'a.io/cpu', operator: 'Gt', values: ['four'] },
    '.values',
    Numeric,
  ),
  reqCase(
    'Lt takes exactly one value',
    { key: 'a.io/cpu', operator: 'Lt', values: ['4'] },
    { key: 'a.io/cpu', operator: 'Lt', values: ['4', '8'] },
    '.values',
    Numeric,
  ),
  reqCase(
    'Gte takes a non-negative integer',
    { key: 'a.io/cpu', operator: 'Gte', values: ['0'] },
    { key: 'a.io/cpu', operator: 'Gte', values: ['1.5'] },
    '.values',
    Numeric,
  ),
  reqCase(
    'Lte needs a value',
    { key: 'a.io/cpu', operator: 'Lte', values: ['16'] },
    { key: 'a.io/cpu', operator: 'Lte' },
    '.values',
    Numeric,
  ),
  reqCase(
    'Exists takes no values',
    { key: 'a.io/gpu', operator: 'Exists' },
    { key: 'a.io/gpu', operator: 'Exists', values: ['x'] },
    '.values',
    'operators Exists and DoesNotExist take no values',
  ),
  reqCase(
    'DoesNotExist takes no values',
    { key: 'a.io/gpu', operator: 'DoesNotExist', values: [] },
    { key: 'a.io/gpu', operator: 'DoesNotExist', values: ['x'] },
    '.values',
    'operators Exists and DoesNotExist take no values',
  ),
  reqCase(
    'minValues at most the number of values',
    { key: 'a.io/b', operator: 'In', values: ['x', 'y'], minValues: 2 },
    { key: 'a.io/b', operator: 'In', values: ['x'], minValues: 2 },
    '.minValues',
    'minValues must not exceed the number of values',
  ),
  reqCase(
    'minValues at least 1',
    { key: 'a.io/b', operator: 'Exists', minValues: 1 },
    { key: 'a.io/b', operator: 'Exists', minValues: 0 },
    '.minValues',
    'must be at least 1',
  ),
  reqCase(
    'minValues at most 50',
    { key: 'a.io/b', operator: 'Exists', minValues: 50 },
    { key: 'a.io/b', operator: 'Exists', minValues: 51 },
    '.minValues',
    'must be at most 50',
  ),
  reqCase(
    'minValues is an integer',
    { key: 'a.io/b', operator: 'Exists', minValues: 2 },
    { key: 'a.io/b', operator: 'Exists', minValues: 1.5 },
    '.minValues',
    'must be an integer',
  ),
  reqCase(
    'values are label values',
    { key: 'a.io/b', operator: 'In', values: ['m5.large'] },
    { key: 'a.io/b', operator: 'In', values: ['m5 large'] },
    '.values[0]',
    LabelValueMessage,
  ),
  reqCase(
    'capacity-type includes a known value',
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'cheap'] },
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['cheap'] },
    '.values',
    'karpenter.sh/capacity-type needs at least one known capacity type: on-demand, spot, reserved',
  ),
  reqCase(
    'capacity-type minValues counts known values',
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'reserved'], minValues: 2 },
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'cheap'], minValues: 2 },
    '.minValues',
    'minValues must not exceed the number of known capacity types (on-demand, spot, reserved) among the values',
  ),
  npCase(
    'at most 100 requirements',
    Requirements,
    Array.from({ length: 100 }, (_, i) => ({ key: `a.io/k${i}`, operator: 'Exists' })),
    Array.from({ length: 101 }, (_, i) => ({ key: `a.io/k${i}`, operator: 'Exists' })),
    'spec.template.spec.requirements',
    'must have at most 100 requirements',
  ),
  npCase(
    'at most 1000 values',
    [...Requirements, 0],
    { key: 'a.io/b', operator: 'In', values: Array.from({ length: 1000 }, (_, i) => `v${i}`) },
    { key: 'a.io/b', operator: 'In', values: Array.from({ length: 1001 }, (_, i) => `v${i}`) },
    'spec.template.spec.requirements[0].values',
    'must have at most 1000 values',
  ),
  npCase(
    'requirements are required',
    [...Requirements],
    [],
    undefined,
    'spec.template.spec.requirements',
    'is required',
  ),

  // Taints.
  npCase(
    'taint key is a qualified name',
    [...Template, 'taints'],
    [taint('example.com/dedicated')],
    [taint('dedicated team')],
    'spec.template.spec.taints[0].key',
    QualifiedNameMessage,
  ),
  npCase(
    'taint key is not empty',
    [...Template, 'taints'],
    [taint('dedicated')],
    [taint('')],
    'spec.template.spec.taints[0].key',
    'must not be empty',
  ),
  npCase(
    'taint value is a label value',
    [...Template, 'taints'],
    [taint('dedicated', 'NoSchedule', 'gpu')],
    [taint('dedicated', 'NoSchedule', 'gpu only')],
    'spec.template.spec.taints[0].value',
    LabelValueMessage,
  ),
  npCase(
    'taint effect is known',
    [...Template, 'taints'],
    [taint('dedicated', 'NoExecute')],
    [taint('dedicated', 'NoRun')],
    'spec.template.spec.taints[0].effect',
    'must be one of NoSchedule, PreferNoSchedule, NoExecute',
  ),
  npCase(
    'taint timeAdded is a date-time',
    [...Template, 'taints'],
    [{ ...taint('a', 'NoExecute'), timeAdded: '2024-01-02T15:04:05Z' }],
    [{ ...taint('a', 'NoExecute'), timeAdded: 'yesterday' }],
    'spec.template.spec.taints[0].timeAdded',
    'must be an RFC 3339 date-time such as 2024-01-02T15:04:05Z',
  ),
  npCase(
    'no duplicate taints',
    [...Template, 'taints'],
    [taint('a'), taint('a', 'NoExecute')],
    [taint('a'), taint('a', 'NoSchedule', 'v')],
    'spec.template.spec.taints[1]',
    'must not repeat a taint with the same key and effect',
    'spec.template.spec.taints',
  ),
  npCase(
    'no duplicate startup taints',
    [...Template, 'startupTaints'],
    [taint('a'), taint('b')],
    [taint('a'), taint('a')],
    'spec.template.spec.startupTaints[1]',
    'must not repeat a taint with the same key and effect',
    'spec.template.spec.startupTaints',
  ),
  npCase(
    'startup taints do not repeat taints',
    Template,
    {
      ...exampleNodePool().spec.template.spec,
      taints: [taint('a')],
      startupTaints: [taint('a', 'NoExecute')],
    },
    { ...exampleNodePool().spec.template.spec, taints: [taint('a')], startupTaints: [taint('a')] },
    'spec.template.spec.startupTaints[0]',
    'startupTaints must not repeat the key and effect of a taint in taints',
    'spec.template.spec.startupTaints',
  ),
  npCase(
    'at most 100 taints',
    [...Template, 'taints'],
    Array.from({ length: 100 }, (_, i) => taint(`t${i}`)),
    Array.from({ length: 101 }, (_, i) => taint(`t${i}`)),
    'spec.template.spec.taints',
    'must have at most 100 taints',
  ),

  // nodeClassRef.
  npCase(
    'nodeClassRef.group is not empty',
    [...Template, 'nodeClassRef', 'group'],
    'karpenter.k8s.aws',
    '',
    'spec.template.spec.nodeClassRef.group',
    'must not be empty',
  ),
  npCase(
    'nodeClassRef.group has no version',
    [...Template, 'nodeClassRef', 'group'],
    'karpenter.k8s.aws',
    'karpenter.k8s.aws/v1',
    'spec.template.spec.nodeClassRef.group',
    'must be an API group without a version, e.g. karpenter.k8s.aws',
  ),
  npCase(
    'nodeClassRef.kind is not empty',
    [...Template, 'nodeClassRef', 'kind'],
    'EC2NodeClass',
    '',
    'spec.template.spec.nodeClassRef.kind',
    'must not be empty',
  ),
  npCase(
    'nodeClassRef.name is not empty',
    [...Template, 'nodeClassRef', 'name'],
    'default',
    '',
    'spec.template.spec.nodeClassRef.name',
    'must not be empty',
  ),
  npCase(
    'nodeClassRef.group is required',
    [...Template, 'nodeClassRef', 'group'],
    'karpenter.k8s.aws',
    undefined,
    'spec.template.spec.nodeClassRef.group',
    'is required',
  ),
  npCase(
    'nodeClassRef is required',
    [...Template, 'nodeClassRef'],
    { group: 'g', kind: 'K', name: 'n' },
    undefined,
    'spec.template.spec.nodeClassRef',
    'is required',
  ),

  // Durations.
  npCase(
    'expireAfter is a duration or Never',
    [...Template, 'expireAfter'],
    'Never',
    '30d',
    'spec.template.spec.expireAfter',
    'must be a duration such as 30s, 10m or 1h30m, or Never',
  ),
  npCase(
    'terminationGracePeriod is a duration',
    [...Template, 'terminationGracePeriod'],
    '1h30m',
    'Never',
    'spec.template.spec.terminationGracePeriod',
    'must be a duration such as 30s, 10m or 1h30m',
  ),
  npCase(
    'consolidateAfter is a duration or Never',
    ['spec', 'disruption', 'consolidateAfter'],
    '5m',
    '5 minutes',
    'spec.disruption.consolidateAfter',
    'must be a duration such as 30s, 10m or 1h30m, or Never',
  ),

  // Disruption.
  npCase(
    'consolidationPolicy is known',
    ['spec', 'disruption', 'consolidationPolicy'],
    'WhenEmpty',
    'WhenUnderutilized',
    'spec.disruption.consolidationPolicy',
    'must be one of WhenEmpty, WhenEmptyOrUnderutilized, Balanced',
  ),
  npCase(
    'consolidationPolicy Balanced (Karpenter v1.14) is known, case-sensitively',
    ['spec', 'disruption', 'consolidationPolicy'],
    'Balanced',
    'balanced',
    'spec.disruption.consolidationPolicy',
    'must be one of WhenEmpty, WhenEmptyOrUnderutilized, Balanced',
  ),
  npCase(
    'budget nodes is a count or percentage',
    [...Budget, 'nodes'],
    '100%',
    '110%',
    'spec.disruption.budgets[0].nodes',
    'must be a node count such as 5 or a percentage from 0% to 100%',
  ),
  npCase(
    'budget nodes is a string',
    [...Budget, 'nodes'],
    '5',
    5,
    'spec.disruption.budgets[0].nodes',
    'must be a string such as "10%" or "5" (quote numbers)',
  ),
  npCase(
    'budget schedule needs a duration',
    Budget,
    { nodes: '0', schedule: '@daily', duration: '10m' },
    { nodes: '0', schedule: '@daily' },
    'spec.disruption.budgets[0].duration',
    'duration is required when schedule is set',
  ),
  npCase(
    'budget duration needs a schedule',
    Budget,
    { nodes: '0' },
    { nodes: '0', duration: '10m' },
    'spec.disruption.budgets[0].schedule',
    'schedule is required when duration is set',
  ),
  npCase(
    'budget schedule is cron',
    Budget,
    { nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h' },
    { nodes: '0', schedule: '0 25 * * *', duration: '8h' },
    'spec.disruption.budgets[0].schedule',
    'must be a cron schedule of five fields (minute hour day-of-month month day-of-week, e.g. "0 9 * * mon-fri") or one of @annually, @yearly, @monthly, @weekly, @daily, @midnight, @hourly',
  ),
  npCase(
    'budget schedule macro is known',
    Budget,
    { nodes: '0', schedule: '@hourly', duration: '30m' },
    { nodes: '0', schedule: '@every-hour', duration: '30m' },
    'spec.disruption.budgets[0].schedule',
    'must be a cron schedule of five fields (minute hour day-of-month month day-of-week, e.g. "0 9 * * mon-fri") or one of @annually, @yearly, @monthly, @weekly, @daily, @midnight, @hourly',
  ),
  npCase(
    'budget duration is hours and minutes',
    Budget,
    { nodes: '0', schedule: '@daily', duration: '1h30m' },
    { nodes: '0', schedule: '@daily', duration: '90s' },
    'spec.disruption.budgets[0].duration',
    'must be a duration in hours and/or minutes such as 30m, 8h or 1h30m (cron has no seconds)',
  ),
  npCase(
    'budget reasons are known',
    [...Budget, 'reasons'],
    ['Drifted', 'Empty'],
    ['Expired'],
    'spec.disruption.budgets[0].reasons[0]',
    'must be one of Underutilized, Empty, Drifted',
  ),
  npCase(
    'budget reasons are a set',
    [...Budget, 'reasons'],
    ['Drifted'],
    ['Drifted', 'Drifted'],
    'spec.disruption.budgets[0].reasons[1]',
    'lists Drifted twice',
    'spec.disruption.budgets[0].reasons[1]',
  ),
  npCase(
    'at most 50 budgets',
    ['spec', 'disruption', 'budgets'],
    Array.from({ length: 50 }, () => ({ nodes: '1' })),
    Array.from({ length: 51 }, () => ({ nodes: '1' })),
    'spec.disruption.budgets',
    'must have at most 50 budgets',
  ),

  // Limits, weight, replicas.
  npCase(
    'limits are quantities',
    ['spec', 'limits'],
    { cpu: 1000, memory: '1000Gi', nodes: '10' },
    { cpu: 'lots' },
    'spec.limits.cpu',
    'must be a quantity such as 500m, 2Gi or 4',
  ),
  npCase('weight at least 1', ['spec', 'weight'], 1, 0, 'spec.weight', 'must be at least 1'),
  npCase('weight at most 100', ['spec', 'weight'], 100, 101, 'spec.weight', 'must be at most 100'),
  npCase('replicas not negative', ['spec', 'replicas'], 0, -1, 'spec.replicas', 'must not be negative'),
  npCase(
    'static NodePool limits only nodes',
    ['spec'],
    { ...exampleNodePool().spec, replicas: 3, limits: { nodes: 5 } },
    { ...exampleNodePool().spec, replicas: 3, limits: { nodes: 5, cpu: 100 } },
    'spec.limits',
    'a static NodePool (replicas set) supports only the nodes limit',
  ),
  npCase(
    'static NodePool has no weight',
    ['spec'],
    { ...exampleNodePool().spec, weight: 10 },
    { ...exampleNodePool().spec, replicas: 3, weight: 10 },
    'spec.weight',
    'weight is not supported on a static NodePool (replicas set)',
  ),

  // Template labels.
  labelCase(
    'label key is a qualified name',
    'example.com/team',
    'team name',
    `label keys ${QualifiedNameMessage}`,
  ),
  labelCase(
    'label outside restricted kubernetes.io',
    'node.kubernetes.io/pool',
    'kubernetes.io/team',
    messageOf('kubernetes.io domain'),
  ),
  labelCase(
    'label outside restricted k8s.io',
    'kops.k8s.io/instancegroup',
    'k8s.io/team',
    messageOf('k8s.io domain'),
  ),
  labelCase(
    'label outside restricted karpenter.sh',
    'karpenter.sh/capacity-type',
    'karpenter.sh/team',
    messageOf('karpenter.sh domain'),
  ),
  labelCase(
    'label is not the nodepool label',
    'example.com/nodepool',
    'karpenter.sh/nodepool',
    messageOf('nodepool label'),
  ),
  labelCase(
    'label is not the hostname label',
    'kubernetes.io/os',
    'kubernetes.io/hostname',
    messageOf('hostname label'),
  ),
  npCase(
    'label value is a label value',
    [...Labels, 'team'],
    'web-frontend',
    'web frontend',
    'spec.template.metadata.labels.team',
    LabelValueMessage,
  ),
  npCase(
    'at most 100 labels',
    Labels,
    Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`l${i}`, 'x'])),
    Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`l${i}`, 'x'])),
    'spec.template.metadata.labels',
    'must have at most 100 labels',
  ),

  // Metadata and structure.
  npCase(
    'name is a DNS subdomain',
    ['metadata', 'name'],
    'general-purpose',
    'General_Purpose',
    'metadata.name',
    'must be a DNS subdomain: at most 253 lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
  ),
  npCase(
    'name is required',
    ['metadata'],
    { name: 'default' },
    { labels: {} },
    'metadata.name',
    'name is required',
    'metadata.name',
  ),
  npCase(
    'unknown fields are rejected',
    ['spec', 'template', 'spec', 'kubelet'],
    undefined,
    { maxPods: 110 },
    'spec.template.spec',
    'unknown field "kubelet"',
    'spec.template.spec.kubelet',
  ),

  // Transition rules.
  updateCase(
    'nodeClassRef.group is immutable',
    [...Template, 'nodeClassRef'],
    { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'other' },
    { group: 'karpenter.azure.com', kind: 'EC2NodeClass', name: 'default' },
    'spec.template.spec.nodeClassRef.group',
    'nodeClassRef.group is immutable',
    'spec.template.spec.nodeClassRef',
  ),
  updateCase(
    'nodeClassRef.kind is immutable',
    [...Template, 'nodeClassRef'],
    { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'other' },
    { group: 'karpenter.k8s.aws', kind: 'OtherNodeClass', name: 'default' },
    'spec.template.spec.nodeClassRef.kind',
    'nodeClassRef.kind is immutable',
    'spec.template.spec.nodeClassRef',
  ),
  updateCase(
    'replicas cannot be added',
    ['spec', 'weight'],
    20,
    undefined,
    'spec.replicas',
    'replicas cannot be added or removed: a NodePool cannot switch between static and dynamic provisioning',
    'spec',
    ['spec', 'replicas'],
    2,
  ),
];

/** An update of the example NodePool: `valid` and `invalid` change `path` (and `invalid` may also set `extraPath`). */
function updateCase(
  rule: string,
  path: Path,
  valid: unknown,
  invalid: unknown,
  where: string,
  message: string,
  serverPath: string,
  extraPath?: Path,
  extraValue?: unknown,
): RuleCase {
  const old = exampleNodePool();
  let bad = withValue(old, path, invalid);
  if (extraPath !== undefined) bad = withValue(bad, extraPath, extraValue);
  return { rule, old, valid: withValue(old, path, valid), invalid: bad, path: where, message, serverPath };
}

/** A case that sets one value of the example NodeClaim. */
function ncCase(
  rule: string,
  path: Path,
  valid: unknown,
  invalid: unknown,
  where: string,
  message: string,
  serverPath?: string,
): RuleCase {
  const base = exampleNodeClaim();
  return {
    rule,
    valid: withValue(base, path, valid),
    invalid: withValue(base, path, invalid),
    path: where,
    message,
    ...(serverPath === undefined ? {} : { serverPath }),
  };
}

/** Every NodeClaim rule the CRD enforces, by example. */
export const nodeClaimRuleCases: readonly RuleCase[] = [
  ncCase(
    'NodeClaim requirement may use the nodepool label but not other karpenter.sh keys',
    ['spec', 'requirements', 0, 'key'],
    'karpenter.sh/nodepool',
    'karpenter.sh/team',
    'spec.requirements[0].key',
    messageOf('karpenter.sh domain'),
  ),
  ncCase(
    'NodeClaim requirement key is not the hostname label',
    ['spec', 'requirements', 0],
    { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
    { key: 'kubernetes.io/hostname', operator: 'In', values: ['a'] },
    'spec.requirements[0].key',
    messageOf('hostname label'),
  ),
  ncCase(
    'NodeClaim In needs values',
    ['spec', 'requirements', 1, 'values'],
    ['m5.large'],
    [],
    'spec.requirements[1].values',
    'operator In needs at least one value',
  ),
  ncCase(
    'NodeClaim requests are quantities',
    ['spec', 'resources', 'requests', 'memory'],
    '4Gi',
    '4 GB',
    'spec.resources.requests.memory',
    'must be a quantity such as 500m, 2Gi or 4',
  ),
  ncCase(
    'NodeClaim taints have known effects',
    ['spec', 'taints'],
    [taint('a', 'PreferNoSchedule')],
    [taint('a', 'Sometimes')],
    'spec.taints[0].effect',
    'must be one of NoSchedule, PreferNoSchedule, NoExecute',
  ),
  ncCase(
    'NodeClaim startup taints do not repeat taints',
    ['spec'],
    { ...exampleNodeClaim().spec, taints: [taint('a')], startupTaints: [taint('b')] },
    { ...exampleNodeClaim().spec, taints: [taint('a')], startupTaints: [taint('a')] },
    'spec.startupTaints[0]',
    'startupTaints must not repeat the key and effect of a taint in taints',
    'spec.startupTaints',
  ),
  ncCase(
    'NodeClaim expireAfter is a duration or Never',
    ['spec', 'expireAfter'],
    '24h',
    '1 day',
    'spec.expireAfter',
    'must be a duration such as 30s, 10m or 1h30m, or Never',
  ),
  ncCase(
    'NodeClaim nodeClassRef.name is not empty',
    ['spec', 'nodeClassRef', 'name'],
    'default',
    '',
    'spec.nodeClassRef.name',
    'must not be empty',
  ),
  ncCase(
    'NodeClaim condition status is True, False or Unknown',
    ['status', 'conditions'],
    [{ type: 'Launched', status: 'True', lastTransitionTime: '2024-01-02T15:04:05Z' }],
    [{ type: 'Launched', status: 'Yes', lastTransitionTime: '2024-01-02T15:04:05Z' }],
    'status.conditions[0].status',
    'must be one of True, False, Unknown',
  ),
  ncCase(
    'NodeClaim condition types are unique',
    ['status', 'conditions'],
    [
      { type: 'Launched', status: 'True', lastTransitionTime: '2024-01-02T15:04:05Z' },
      {
        type: 'Registered',
        status: 'False',
        lastTransitionTime: '2024-01-02T15:04:05Z',
        reason: 'NotYet',
        message: '',
      },
    ],
    [
      { type: 'Launched', status: 'True', lastTransitionTime: '2024-01-02T15:04:05Z' },
      { type: 'Launched', status: 'False', lastTransitionTime: '2024-01-02T15:04:05Z' },
    ],
    'status.conditions[1].type',
    'condition type Launched appears more than once',
    'status.conditions[1]',
  ),
  {
    rule: 'NodeClaim spec is immutable',
    old: exampleNodeClaim(),
    valid: withValue(exampleNodeClaim(), ['metadata', 'labels', 'team'], 'web'),
    invalid: withValue(exampleNodeClaim(), ['spec', 'expireAfter'], '24h'),
    path: 'spec',
    message: 'spec is immutable',
  },
];
