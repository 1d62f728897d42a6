import { z } from 'zod';
import { celString, type PairedRule, withRules } from '../common/cel.js';
import { duration, durationOrNever } from '../common/duration.js';
import {
  isQualifiedName,
  labelValue,
  QualifiedNameMaxLength,
  QualifiedNameMessage,
  QualifiedNamePattern,
} from '../common/primitives.js';
import { nodeClassRefSchema } from './nodeclassref.js';
import { requirementsSchema } from './requirement.js';
import { restrictedLabelRules } from './restricted-labels.js';
import { StartupTaintRule, taintsSchema } from './taint.js';

export const MaxTemplateLabels = 100;

type StringMap = Record<string, string>;

/** Each rule over label keys reports the offending keys, at `labels["key"]`. */
function keyRule(rule: string, message: string, allows: (key: string) => boolean): PairedRule<StringMap> {
  return {
    cel: { rule: `self.all(k, ${rule})`, message },
    check: (labels) => Object.keys(labels).flatMap((k) => (allows(k) ? [] : [{ path: [k] }])),
  };
}

/** Labels every node of the NodePool gets: valid keys and values, none in a restricted domain. */
export const templateLabelsSchema = withRules(
  z
    .record(z.string(), labelValue())
    .refine(
      (labels) => Object.keys(labels).length <= MaxTemplateLabels,
      `must have at most ${MaxTemplateLabels} labels`,
    )
    .meta({ maxProperties: MaxTemplateLabels, 'x-kubernetes-map-type': 'atomic' }),
  [
    keyRule(
      `k.size() <= ${QualifiedNameMaxLength} && k.matches(${celString(QualifiedNamePattern)})`,
      `label keys ${QualifiedNameMessage}`,
      isQualifiedName,
    ),
    ...restrictedLabelRules('NodePool').map((r) => keyRule(r.cel('k'), r.message, r.allows)),
  ],
).describe('Labels applied to every node of this NodePool.');

/** `template.metadata`: the labels and annotations nodes are created with. */
export const templateMetadataSchema = z
  .strictObject({
    labels: templateLabelsSchema.optional(),
    annotations: z
      .record(z.string(), z.string())
      .meta({
        'x-kubernetes-map-type': 'granular',
        description: 'Annotations applied to every node of this NodePool.',
      })
      .optional(),
  })
  .describe('Labels and annotations of the nodes.');

/** `template.spec`: what every NodeClaim of the NodePool asks for. */
export const nodeClaimTemplateSpecSchema = withRules(
  z
    .strictObject({
      taints: taintsSchema.optional().describe('Taints every node is created with.'),
      startupTaints: taintsSchema
        .optional()
        .describe(
          'Taints a node starts with that something on the node (typically a DaemonSet) removes once it is ready; pods need not tolerate them.',
        ),
      requirements: requirementsSchema('NodePool').describe(
        'Constraints on the nodes: label keys with allowed values, minimum flexibility via minValues.',
      ),
      nodeClassRef: nodeClassRefSchema,
      expireAfter: durationOrNever()
        .default('720h')
        .describe('How long after creation a node is replaced; Never keeps nodes indefinitely.'),
      terminationGracePeriod: duration()
        .optional()
        .describe(
          'How long draining a node may take before its pods are deleted regardless of PodDisruptionBudgets and do-not-disrupt; unlimited if unset.',
        ),
    })
    .describe('The specification of the NodeClaims the NodePool creates.'),
  [StartupTaintRule],
);
export type NodeClaimTemplateSpec = z.output<typeof nodeClaimTemplateSpecSchema>;

/** `spec.template` of a NodePool. */
export const nodeClaimTemplateSchema = z
  .strictObject({
    metadata: templateMetadataSchema.optional(),
    spec: nodeClaimTemplateSpecSchema,
  })
  .describe('The template of the NodeClaims (and so the nodes) this NodePool creates.');
export type NodeClaimTemplate = z.output<typeof nodeClaimTemplateSchema>;
