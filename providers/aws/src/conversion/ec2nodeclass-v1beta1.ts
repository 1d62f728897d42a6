import {
  type ConversionContext,
  type Converter,
  conversionJson,
  type Delivery,
  formatFieldPath,
  type HandOffReceiver,
  type JsonObject,
  KubeletHandOffTopic,
} from '@nodewright/core/apis';
import { MaxSelectorTerms } from '../apis/selector-terms.js';
import { asSelectorMap, type SelectorKind, termsFromSelectorMap } from './selector-terms.js';

const { ensureObject, isJsonObject, jsonEqual, objectAt, quote, stringAt } = conversionJson;

const EC2NodeClassGroup = 'karpenter.k8s.aws';
export const EC2NodeClassV1beta1ApiVersion = `${EC2NodeClassGroup}/v1beta1`;
const EC2NodeClassV1ApiVersion = `${EC2NodeClassGroup}/v1`;

/**
 * Annotations Karpenter's conversion webhook reads and writes. The alias version one carries
 * a v1 alias's pinned version through a round trip to v1beta1; the Ubuntu one records what
 * the conversion changed on an Ubuntu EC2NodeClass.
 */
export const EC2NodeClassCompatibilityAnnotations = {
  AliasVersion: 'compatibility.karpenter.k8s.aws/v1-alias-version',
  Ubuntu: 'compatibility.karpenter.k8s.aws/v1beta1-ubuntu',
} as const;

/** v1beta1 AMI families that v1 expresses as an `alias` term when no AMI terms are given. */
const AliasFamilies = ['AL2', 'AL2023', 'Bottlerocket', 'Windows2019', 'Windows2022'];

/** v1beta1's metadataOptions default; v1 lowered the hop limit to 1. */
const V1beta1MetadataOptions = {
  httpEndpoint: 'enabled',
  httpProtocolIPv6: 'disabled',
  httpPutResponseHopLimit: 2,
  httpTokens: 'required',
} as const;

/** The root volume Karpenter gave Ubuntu nodes, which the conversion pins when none is set. */
const UbuntuBlockDeviceMappings = [
  {
    deviceName: '/dev/sda1',
    rootVolume: true,
    ebs: { encrypted: true, volumeType: 'gp3', volumeSize: '20Gi' },
  },
];

const LegacySelectors: ReadonlyArray<[mapKey: string, termsKey: string, kind: SelectorKind]> = [
  ['subnetSelector', 'subnetSelectorTerms', 'subnet'],
  ['securityGroupSelector', 'securityGroupSelectorTerms', 'securityGroup'],
  ['amiSelector', 'amiSelectorTerms', 'ami'],
];

/** Tags v1 reserves for Karpenter's own use that v1beta1 allowed. */
const NewlyRestrictedTags = ['eks:eks-cluster-name'];

type Warn = (field: string, message: string) => void;

/**
 * The karpenter.k8s.aws/v1beta1 -> v1 EC2NodeClass conversion, as Karpenter's conversion
 * webhook does it, applied to manifests:
 * - AL2, AL2023, Bottlerocket, Windows2019 and Windows2022 without amiSelectorTerms become the
 *   alias term `<family>@latest` (or the version pinned by the alias-version annotation) and
 *   lose amiFamily; with terms, both are kept;
 * - Ubuntu becomes AL2 (same user data format) with Ubuntu's root volume when no
 *   blockDeviceMappings are set, and a placeholder AMI (which Karpenter treats as not ready)
 *   when no terms are set, recorded in the Ubuntu compatibility annotation;
 * - Custom stays Custom; a missing or unknown family is treated as Custom;
 * - v1alpha1-style selector maps (`subnetSelector`, ...) become selector terms;
 * - metadataOptions are pinned to v1beta1's default hop limit of 2 where it was implied,
 *   since v1's default of 1 would cut pods off from IMDS;
 * - kubelet settings handed over by NodePools land in `spec.kubelet` (see `receives`).
 * Whatever cannot be carried over, or changes behaviour in v1, is a warning.
 */
export const ec2NodeClassV1beta1Converter: Converter = {
  from: { apiVersion: EC2NodeClassV1beta1ApiVersion, kind: 'EC2NodeClass' },
  migrationHints: {
    apiVersion: EC2NodeClassV1ApiVersion,
    hints: [
      ...LegacySelectors.map(([mapKey, termsKey]) => ({
        field: `spec.${mapKey}`,
        hint: `v1 selects with spec.${termsKey}, a list of terms (nodewright convert rewrites the map)`,
      })),
      { field: 'spec.launchTemplateName', hint: 'launch templates are not supported since v1beta1' },
      {
        field: 'spec.amiFamily',
        value: 'Ubuntu',
        hint: 'v1 has no Ubuntu family: use AL2 with Ubuntu AMIs in amiSelectorTerms (nodewright convert does)',
      },
    ],
  },
  convert(obj, ctx) {
    obj.apiVersion = EC2NodeClassV1ApiVersion;
    const aliasVersion = takeAliasVersion(obj);
    const spec = objectAt(obj, 'spec');
    if (spec === undefined) {
      ctx.warn('spec', 'is missing; nothing to convert');
      return obj;
    }
    convertLegacySelectors(spec, ctx.warn);
    if (Object.hasOwn(spec, 'launchTemplateName')) {
      ctx.warn(
        'spec.launchTemplateName',
        `not carried over: launch templates are not supported since v1beta1; value: ${quote(spec.launchTemplateName)}`,
      );
      delete spec.launchTemplateName;
    }
    convertAmiFamily(obj, spec, aliasVersion, ctx.warn);
    pinMetadataOptions(spec, ctx.warn);
    dropRestrictedTags(spec, ctx.warn);
    return obj;
  },
  receives: kubeletReceiver(),
};

/** Reads and removes the alias-version annotation (and an annotations map it leaves empty). */
function takeAliasVersion(obj: JsonObject): string | undefined {
  const metadata = objectAt(obj, 'metadata');
  const annotations = objectAt(metadata, 'annotations');
  const key = EC2NodeClassCompatibilityAnnotations.AliasVersion;
  if (annotations === undefined || !Object.hasOwn(annotations, key)) return undefined;
  const version = stringAt(annotations, key);
  delete annotations[key];
  if (Object.keys(annotations).length === 0) delete metadata!.annotations;
  return version === '' ? undefined : version;
}

function convertLegacySelectors(spec: JsonObject, warn: Warn): void {
  for (const [mapKey, termsKey, kind] of LegacySelectors) {
    if (!Object.hasOwn(spec, mapKey)) continue;
    const raw = spec[mapKey];
    delete spec[mapKey];
    const selector = asSelectorMap(raw);
    if (selector === undefined) {
      warn(`spec.${mapKey}`, `not carried over: must be a map of strings; value: ${quote(raw)}`);
      continue;
    }
    if (hasItems(spec[termsKey])) {
      warn(`spec.${mapKey}`, `not carried over: spec.${termsKey} is set and takes its place`);
      continue;
    }
    const converted = termsFromSelectorMap(selector, kind);
    if ('tooMany' in converted) {
      warn(
        `spec.${mapKey}`,
        `not carried over: every combination of its comma-separated values is a term, more than v1's limit of ${MaxSelectorTerms}; write spec.${termsKey} by hand`,
      );
      continue;
    }
    const { terms, dropped } = converted;
    spec[termsKey] = terms;
    if (dropped.length > 0) {
      warn(
        `spec.${mapKey}`,
        `v1 terms cannot combine ids with other filters; kept the ids only and dropped ${dropped.join(', ')}`,
      );
    }
  }
}

function convertAmiFamily(
  obj: JsonObject,
  spec: JsonObject,
  aliasVersion: string | undefined,
  warn: Warn,
): void {
  const family = spec.amiFamily;
  const hasTerms = hasItems(spec.amiSelectorTerms);
  if (typeof family === 'string' && AliasFamilies.includes(family)) {
    if (!hasTerms) {
      delete spec.amiFamily;
      spec.amiSelectorTerms = [{ alias: `${family.toLowerCase()}@${aliasVersion ?? 'latest'}` }];
    }
    if (family === 'AL2023' && typeof spec.userData === 'string' && spec.userData !== '') {
      warn(
        'spec.userData',
        'in v1 the NodeConfig Karpenter generates for AL2023 takes precedence over values set here; configure kubelet settings through spec.kubelet instead',
      );
    }
    return;
  }
  if (family === 'Ubuntu') {
    convertUbuntu(obj, spec, hasTerms, warn);
    return;
  }
  if (family !== 'Custom') {
    spec.amiFamily = 'Custom';
    warn(
      'spec.amiFamily',
      `${family === undefined ? 'is missing' : `${quote(family)} is not a v1beta1 AMI family`}; treated as Custom, as Karpenter's conversion does`,
    );
  }
  if (!hasTerms) {
    warn('spec.amiSelectorTerms', 'is required with amiFamily Custom: select the AMIs to launch');
  }
  warn(
    'spec.userData',
    'with amiFamily Custom, v1 expects your user data to register nodes with the karpenter.sh/unregistered:NoExecute taint (Karpenter removes it)',
  );
}

function convertUbuntu(obj: JsonObject, spec: JsonObject, hasTerms: boolean, warn: Warn): void {
  const specifiers = ['amiFamily'];
  spec.amiFamily = 'AL2';
  if (spec.blockDeviceMappings === undefined || spec.blockDeviceMappings === null) {
    spec.blockDeviceMappings = structuredClone(UbuntuBlockDeviceMappings);
    specifiers.push('blockDeviceMappings');
  }
  if (hasTerms) {
    warn(
      'spec.amiFamily',
      "Ubuntu is not an AMI family in v1: converted to AL2, whose user data format Ubuntu shares, keeping your amiSelectorTerms, as Karpenter's conversion does; this is not guaranteed to keep working, so consider Custom",
    );
  } else {
    spec.amiSelectorTerms = [{ id: 'ami-placeholder' }];
    specifiers.push('incompatible');
    warn(
      'spec.amiSelectorTerms',
      'v1 cannot discover Ubuntu AMIs: converted to AL2 with a placeholder AMI, so Karpenter treats this EC2NodeClass (and its NodePools) as not ready; select your Ubuntu AMIs in amiSelectorTerms',
    );
  }
  const metadata = ensureObject(obj, 'metadata');
  ensureObject(metadata, 'annotations')[EC2NodeClassCompatibilityAnnotations.Ubuntu] = specifiers.join(',');
}

function pinMetadataOptions(spec: JsonObject, warn: Warn): void {
  const options = spec.metadataOptions;
  const message =
    "set to v1beta1's default hop limit of 2, so pods keep reaching the instance metadata service; v1's default is 1, which blocks pods without hostNetwork: remove it to adopt that";
  if (options === undefined || options === null) {
    spec.metadataOptions = { ...V1beta1MetadataOptions };
    warn('spec.metadataOptions', message);
  } else if (isJsonObject(options) && options.httpPutResponseHopLimit === undefined) {
    options.httpPutResponseHopLimit = V1beta1MetadataOptions.httpPutResponseHopLimit;
    warn('spec.metadataOptions.httpPutResponseHopLimit', message);
  }
}

function dropRestrictedTags(spec: JsonObject, warn: Warn): void {
  const tags = objectAt(spec, 'tags');
  if (tags === undefined) return;
  for (const key of NewlyRestrictedTags) {
    if (!Object.hasOwn(tags, key)) continue;
    warn(
      formatFieldPath(['spec', 'tags', key]),
      `not carried over: v1 reserves this tag and sets it itself; value: ${quote(tags[key])}`,
    );
    delete tags[key];
  }
}

function hasItems(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

/**
 * Takes the kubelet settings of the v1beta1 NodePools that reference an EC2NodeClass (of any
 * version) into its `spec.kubelet`. In v1 every NodePool sharing an EC2NodeClass shares its
 * kubelet, so when they disagree (or one has none) only one can win: the EC2NodeClass's own
 * `spec.kubelet` if it has one, else the first NodePool's in input order; each NodePool whose
 * nodes would change is warned to use an EC2NodeClass of its own.
 */
function kubeletReceiver(): HandOffReceiver {
  return {
    group: EC2NodeClassGroup,
    kind: 'EC2NodeClass',
    topics: [KubeletHandOffTopic],
    receive(obj: JsonObject, _topic: string, deliveries: readonly Delivery[], ctx: ConversionContext) {
      const spec = ensureObject(obj, 'spec');
      const own = spec.kubelet;
      const first = deliveries.find((d) => d.value !== undefined);
      if (own === undefined && first === undefined) return obj;
      const winner =
        own !== undefined
          ? { value: own, source: `its own spec.kubelet` }
          : { value: first!.value, source: `the kubelet of ${first!.from}` };
      if (own === undefined) spec.kubelet = first!.value;
      for (const d of deliveries) {
        if (jsonEqual(d.value, winner.value)) continue;
        if (d.value === undefined) {
          d.warn(
            `this NodePool has no kubelet, but ${ctx.object} now has ${winner.source}, which v1 applies to this NodePool's nodes too; give this NodePool its own EC2NodeClass to keep kubelet defaults`,
          );
        } else {
          d.warn(
            `not carried over: ${ctx.object} keeps ${winner.source}, and in v1 the NodePools sharing an EC2NodeClass share its kubelet; give this NodePool its own EC2NodeClass with spec.kubelet ${quote(d.value)}`,
          );
        }
      }
      return obj;
    },
  };
}
