import { Quantity } from '../../scheduling/quantity/quantity.js';
import { formatFieldPath } from '../field-errors.js';
import {
  type Converter,
  type JsonObject,
  KubeletHandOffTopic,
  type MigrationHint,
  type ObjectAddress,
} from './converter.js';
import { ensureObject, groupOf, isJsonObject, objectAt, quote, stringAt } from './json.js';

export const NodePoolV1beta1ApiVersion = 'karpenter.sh/v1beta1';
const NodePoolV1ApiVersion = 'karpenter.sh/v1';

/** Node annotations v1beta1 still honoured and v1 no longer does. */
const RemovedAnnotations: ReadonlyMap<string, string> = new Map([
  ['karpenter.sh/do-not-consolidate', 'karpenter.sh/do-not-disrupt'],
  ['karpenter.sh/do-not-evict', 'karpenter.sh/do-not-disrupt'],
]);

export interface NodePoolConversionOptions {
  /**
   * The NodeClass a v1beta1 `nodeClassRef` means when it leaves out apiVersion or kind.
   * Karpenter's conversion takes the cloud provider's default (first supported) NodeClass.
   */
  readonly defaultNodeClass: { readonly group: string; readonly kind: string };
  /**
   * Labels whose values are whole numbers of a binary unit (instance memory in MiB), by key. A
   * `Gt`/`Lt`/`Gte`/`Lte` requirement on one whose value is a quantity (`4Gi`, a common mistake
   * the API server never accepted for these operators) is rewritten to the integer it means,
   * with a warning. Default: none.
   */
  readonly sizeLabels?: ReadonlyMap<string, SizeUnit>;
}

/** The unit a size label counts in: its name and how many bytes one of it is. */
export interface SizeUnit {
  readonly name: string;
  readonly bytes: bigint;
}

/** 2^20 bytes. */
export const MiB: SizeUnit = { name: 'MiB', bytes: 1n << 20n };
/** 2^30 bytes. */
export const GiB: SizeUnit = { name: 'GiB', bytes: 1n << 30n };

/**
 * The karpenter.sh/v1beta1 -> v1 NodePool conversion, as Karpenter's conversion webhook does
 * it, applied to manifests:
 * - `WhenUnderutilized` becomes `WhenEmptyOrUnderutilized` with `consolidateAfter: 0s` (v1
 *   requires consolidateAfter, and v1beta1 consolidated underutilized nodes at once);
 *   `WhenEmpty` keeps its consolidateAfter;
 * - `disruption.expireAfter` moves to `template.spec.expireAfter`;
 * - `nodeClassRef {apiVersion, kind, name}` becomes `{group, kind, name}`, the group taken from
 *   apiVersion; a missing apiVersion or kind means the provider's default NodeClass;
 * - `template.spec.kubelet` is handed to the referenced NodeClass (v1 keeps kubelet there);
 *   a NodePool without one still takes part, so a NodeClass shared with a kubelet-less
 *   NodePool is reported as a conflict;
 * - `template.spec.resources`, which v1 dropped, and node annotations v1 no longer honours are
 *   removed with a warning; `status` keeps only `resources`, as upstream;
 * - nodewright's addition: a quantity given to `Gt`/`Lt`/`Gte`/`Lte` on a size label
 *   (`karpenter.k8s.aws/instance-memory Gt 4Gi`; see `sizeLabels`) becomes the integer it
 *   means (`4096`) with a warning, where validation would otherwise refuse the file.
 */
export function createNodePoolV1beta1Converter(options: NodePoolConversionOptions): Converter {
  return {
    from: { apiVersion: NodePoolV1beta1ApiVersion, kind: 'NodePool' },
    migrationHints: { apiVersion: NodePoolV1ApiVersion, hints: nodePoolMigrationHints(options) },
    convert(obj, ctx) {
      obj.apiVersion = NodePoolV1ApiVersion;
      const spec = objectAt(obj, 'spec');
      if (spec === undefined) {
        ctx.warn('spec', 'is missing; nothing to convert');
        return obj;
      }
      const expireAfter = convertDisruption(spec, ctx.warn);
      const template = ensureObject(spec, 'template');
      const templateSpec = ensureObject(template, 'spec');
      if (expireAfter !== undefined) {
        if (templateSpec.expireAfter !== undefined) {
          ctx.warn(
            'spec.disruption.expireAfter',
            `not carried over: spec.template.spec.expireAfter is already set (${quote(templateSpec.expireAfter)})`,
          );
        } else {
          templateSpec.expireAfter = expireAfter;
        }
      }
      convertSizeRequirements(templateSpec, options.sizeLabels, ctx.warn);
      const nodeClass = convertNodeClassRef(templateSpec, options, ctx.warn);
      if (Object.hasOwn(templateSpec, 'kubelet')) {
        const kubelet = templateSpec.kubelet;
        delete templateSpec.kubelet;
        if (nodeClass !== undefined) {
          ctx.handOff(nodeClass, KubeletHandOffTopic, kubelet, 'spec.template.spec.kubelet');
        } else {
          ctx.warn(
            'spec.template.spec.kubelet',
            `not carried over: there is no nodeClassRef to move it to; value: ${quote(kubelet)}`,
          );
        }
      } else if (nodeClass !== undefined) {
        ctx.handOff(nodeClass, KubeletHandOffTopic, undefined, 'spec.template.spec.nodeClassRef');
      }
      if (Object.hasOwn(templateSpec, 'resources')) {
        ctx.warn(
          'spec.template.spec.resources',
          `not carried over: v1 NodePool templates have no resources (a NodeClaim's requests come from its pods); value: ${quote(templateSpec.resources)}`,
        );
        delete templateSpec.resources;
      }
      dropRemovedAnnotations(objectAt(template, 'metadata'), ctx.warn);
      const status = objectAt(obj, 'status');
      if (status !== undefined) {
        if (status.resources === undefined) delete obj.status;
        else obj.status = { resources: status.resources };
      }
      return obj;
    },
  };
}

const ConvertAdvice = 'nodewright convert upgrades a v1beta1 file';

/** The v1beta1 NodePool fields a v1 NodePool may still carry, and what v1 made of each. */
function nodePoolMigrationHints(options: NodePoolConversionOptions): MigrationHint[] {
  return [
    {
      field: 'spec.disruption.consolidationPolicy',
      value: 'WhenUnderutilized',
      hint: `WhenUnderutilized is v1beta1's name: v1 calls it WhenEmptyOrUnderutilized (${ConvertAdvice})`,
    },
    {
      field: 'spec.disruption.expireAfter',
      hint: `v1 moved expireAfter to spec.template.spec.expireAfter (${ConvertAdvice})`,
    },
    {
      field: 'spec.template.spec.kubelet',
      hint: `v1 moved kubelet settings to the NodeClass (${options.defaultNodeClass.kind} spec.kubelet) (${ConvertAdvice})`,
    },
    {
      field: 'spec.template.spec.resources',
      hint: "v1 dropped it: a NodeClaim's requests come from its pods",
    },
    {
      field: 'spec.template.spec.nodeClassRef.apiVersion',
      hint: `v1 names the NodeClass by group (e.g. group: ${options.defaultNodeClass.group}), not apiVersion (${ConvertAdvice})`,
    },
  ];
}

/**
 * The size labels of the providers whose NodePools come through this conversion: AWS's
 * instance memory and GPU memory (MiB) and local NVMe (GiB), and KWOK's instance memory (MiB).
 */
export const ProviderSizeLabels: ReadonlyMap<string, SizeUnit> = new Map([
  ['karpenter.k8s.aws/instance-memory', MiB],
  ['karpenter.k8s.aws/instance-gpu-memory', MiB],
  ['karpenter.k8s.aws/instance-local-nvme', GiB],
  ['karpenter.kwok.sh/instance-memory', MiB],
]);

/** The conversion with Karpenter AWS's default NodeClass, karpenter.k8s.aws EC2NodeClass. */
export const nodePoolV1beta1Converter: Converter = createNodePoolV1beta1Converter({
  defaultNodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' },
  sizeLabels: ProviderSizeLabels,
});

const OrderOperators: ReadonlySet<string> = new Set(['Gt', 'Lt', 'Gte', 'Lte']);

/**
 * Rewrites a quantity (`4Gi`) given to an order operator on a size label into the whole number
 * of the label's unit it means (4096 for MiB). A value between two whole units is rounded so
 * that the same integer label values pass: down for Gt and Lte, up for Lt and Gte.
 */
function convertSizeRequirements(
  templateSpec: JsonObject,
  sizeLabels: ReadonlyMap<string, SizeUnit> | undefined,
  warn: Warn,
): void {
  const requirements = templateSpec.requirements;
  if (sizeLabels === undefined || !Array.isArray(requirements)) return;
  for (const [index, requirement] of requirements.entries()) {
    if (!isJsonObject(requirement)) continue;
    const key = stringAt(requirement, 'key');
    const operator = stringAt(requirement, 'operator');
    const values = requirement.values;
    const unit = key === undefined ? undefined : sizeLabels.get(key);
    if (unit === undefined || operator === undefined || !OrderOperators.has(operator)) continue;
    if (!Array.isArray(values) || values.length !== 1 || typeof values[0] !== 'string') continue;
    const value = values[0];
    if (/^[0-9]+$/.test(value)) continue;
    const parsed = Quantity.safeParse(value);
    if (!parsed.success || parsed.quantity.sign() < 0) continue;
    const perUnit = unit.bytes * 1_000_000_000n;
    const nanos = parsed.quantity.nanos;
    const down = nanos / perUnit;
    const exact = down * perUnit === nanos;
    const units = exact || operator === 'Gt' || operator === 'Lte' ? down : down + 1n;
    requirement.values = [String(units)];
    warn(
      formatFieldPath(['spec', 'template', 'spec', 'requirements', index, 'values', 0]),
      `${quote(value)} is a quantity, but ${key} counts ${unit.name} and ${operator} takes an integer: rewritten to "${units}"${exact ? '' : ` (rounded ${units === down ? 'down' : 'up'})`}`,
    );
  }
}

type Warn = (field: string, message: string) => void;

/** Rewrites `spec.disruption` in place and returns the expireAfter it removed, if any. */
function convertDisruption(spec: JsonObject, warn: Warn): unknown {
  const disruption = objectAt(spec, 'disruption');
  if (disruption === undefined) return undefined;
  const policy = disruption.consolidationPolicy;
  // An absent policy is v1beta1's default, WhenUnderutilized; v1's default is its new name.
  if (policy === 'WhenUnderutilized' || policy === undefined) {
    if (policy !== undefined) disruption.consolidationPolicy = 'WhenEmptyOrUnderutilized';
    const after = disruption.consolidateAfter;
    if (after !== undefined && after !== '0s') {
      warn(
        'spec.disruption.consolidateAfter',
        after === 'Never'
          ? 'was Never with WhenUnderutilized; v1 requires a consolidateAfter and the conversion sets 0s, as Karpenter does: set Never again to stop consolidation'
          : `v1beta1 does not allow ${quote(after)} with WhenUnderutilized; set to 0s, as Karpenter's conversion does`,
      );
    }
    disruption.consolidateAfter = '0s';
  } else if (policy === 'WhenEmpty') {
    if (disruption.consolidateAfter === undefined) {
      warn(
        'spec.disruption.consolidateAfter',
        'is required with WhenEmpty (in v1beta1 and v1 alike); set how long a node must be empty before it is removed',
      );
    }
  } else {
    warn(
      'spec.disruption.consolidationPolicy',
      `${quote(policy)} is not a v1beta1 consolidation policy; left as is`,
    );
  }
  if (!Object.hasOwn(disruption, 'expireAfter')) return undefined;
  const expireAfter = disruption.expireAfter;
  delete disruption.expireAfter;
  return expireAfter;
}

/** Rewrites `nodeClassRef` to v1's {group, kind, name}; returns the NodeClass it addresses. */
function convertNodeClassRef(
  templateSpec: JsonObject,
  options: NodePoolConversionOptions,
  warn: Warn,
): ObjectAddress | undefined {
  const field = 'spec.template.spec.nodeClassRef';
  const ref = objectAt(templateSpec, 'nodeClassRef');
  if (ref === undefined) {
    warn(field, 'is required: v1 needs the group, kind and name of the NodeClass');
    return undefined;
  }
  const apiVersion = stringAt(ref, 'apiVersion') ?? '';
  const name = stringAt(ref, 'name');
  const assumed: string[] = [];
  let group: string;
  if (apiVersion === '') {
    group = options.defaultNodeClass.group;
    assumed.push('apiVersion');
  } else {
    const parsed = groupOf(apiVersion);
    if (parsed === undefined) warn(`${field}.apiVersion`, `${quote(apiVersion)} is not a group/version`);
    group = parsed ?? apiVersion.split('/')[0]!;
  }
  let kind = stringAt(ref, 'kind') ?? '';
  if (kind === '') {
    kind = options.defaultNodeClass.kind;
    assumed.push('kind');
  }
  if (assumed.length > 0) {
    warn(
      field,
      `has no ${assumed.join(' or ')}; assumed ${kind} in group ${group}, the default NodeClass, as Karpenter's conversion does`,
    );
  }
  templateSpec.nodeClassRef = name === undefined ? { group, kind } : { group, kind, name };
  return name === undefined ? undefined : { group, kind, name };
}

function dropRemovedAnnotations(metadata: JsonObject | undefined, warn: Warn): void {
  const annotations = objectAt(metadata, 'annotations');
  if (annotations === undefined) return;
  for (const [key, replacement] of RemovedAnnotations) {
    if (!Object.hasOwn(annotations, key)) continue;
    warn(
      formatFieldPath(['spec', 'template', 'metadata', 'annotations', key]),
      `not carried over: v1 no longer honours ${key}; use ${replacement} instead`,
    );
    delete annotations[key];
  }
}
