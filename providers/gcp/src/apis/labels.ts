import { withRules } from '@nodewright/core/apis';
import { z } from 'zod';

/** GCE label keys: a lowercase letter, then up to 62 lowercase letters, digits, `_` or `-`. */
export const GceLabelKeyPattern = '^[a-z][a-z0-9_-]{0,62}$';
/** GCE label values: up to 63 lowercase letters, digits, `_` or `-`. */
export const GceLabelValuePattern = '^[a-z0-9_-]{0,63}$';
const keyRe = new RegExp(GceLabelKeyPattern);
const valueRe = new RegExp(GceLabelValuePattern);

/** GCE labels nodewright sets on its instances itself (see launch/labels.ts). */
export const ReservedLabelKeys = [
  'goog-k8s-cluster-name',
  'karpenter-sh-nodepool',
  'karpenter-sh-nodeclaim',
  'karpenter-k8s-gcp-gcenodeclass',
] as const;

/** Metadata keys nodewright writes for the kubelet and bootstrap (see launch/metadata.ts). */
export const ReservedMetadataKeys = [
  'cluster-name',
  'kube-labels',
  'kube-taints',
  'kube-startup-taints',
  'kubelet-config',
  'user-data',
] as const;

/** Labels for the instances and disks nodewright creates. */
/** GCE allows at most 64 labels on a resource. */
export const MaxGceLabels = 64;
/** Metadata entries nodewright accepts from a NodeClass (GCE's whole metadata is at most 512 KiB). */
export const MaxMetadataEntries = 128;

/**
 * A string map bounded in size, key and value length: the bounds are what lets kube-apiserver
 * estimate the cost of the CEL rules over it within its budget.
 */
function boundedMap(maxEntries: number, maxKey: number, maxValue: number, what: string) {
  return z
    .record(
      z.string().max(maxKey, `keys must be at most ${maxKey} characters long`),
      z.string().max(maxValue, `values must be at most ${maxValue} characters long`),
    )
    .refine((m) => Object.keys(m).length <= maxEntries, `must have at most ${maxEntries} ${what}`)
    .meta({ maxProperties: maxEntries });
}

export const gceLabelsSchema = withRules(boundedMap(MaxGceLabels, 63, 63, 'labels'), [
  {
    cel: {
      rule: `self.all(k, k.matches('${GceLabelKeyPattern}'))`,
      message: 'label keys must be a lowercase letter, then at most 62 lowercase letters, digits, _ or -',
    },
    check: (labels) => Object.keys(labels).flatMap((k) => (keyRe.test(k) ? [] : [{ path: [k] }])),
  },
  {
    cel: {
      rule: `self.all(k, self[k].matches('${GceLabelValuePattern}'))`,
      message: 'label values must be at most 63 lowercase letters, digits, _ or -',
    },
    check: (labels) => Object.entries(labels).flatMap(([k, v]) => (valueRe.test(v) ? [] : [{ path: [k] }])),
  },
  {
    cel: {
      rule: `self.all(k, !(k in [${ReservedLabelKeys.map((k) => `'${k}'`).join(', ')}]))`,
      message: `labels ${ReservedLabelKeys.join(', ')} are restricted: nodewright sets them itself`,
    },
    check: (labels) =>
      Object.keys(labels).flatMap((k) =>
        (ReservedLabelKeys as readonly string[]).includes(k) ? [{ path: [k] }] : [],
      ),
  },
]).describe('GCE labels for the instances and disks nodewright creates.');

/** Instance metadata, merged with what nodewright writes for the kubelet. */
export const gceMetadataSchema = withRules(boundedMap(MaxMetadataEntries, 128, 262144, 'entries'), [
  {
    cel: {
      rule: `self.all(k, !(k in [${ReservedMetadataKeys.map((k) => `'${k}'`).join(', ')}]))`,
      message: `metadata keys ${ReservedMetadataKeys.join(', ')} are restricted: nodewright sets them itself`,
    },
    check: (metadata) =>
      Object.keys(metadata).flatMap((k) =>
        (ReservedMetadataKeys as readonly string[]).includes(k) ? [{ path: [k] }] : [],
      ),
  },
  {
    cel: {
      rule: "self.all(k, k.matches('^[a-zA-Z0-9_-]{1,128}$'))",
      message: 'metadata keys must be 1 to 128 letters, digits, _ or -',
    },
    check: (metadata) =>
      Object.keys(metadata).flatMap((k) => (/^[a-zA-Z0-9_-]{1,128}$/.test(k) ? [] : [{ path: [k] }])),
  },
]).describe('Instance metadata for the nodes.');
