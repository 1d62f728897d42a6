import { z } from 'zod';
import { affinitySchema } from './affinity.js';
import { type Container, containerSchema, type InitContainer, initContainerSchema } from './container.js';
import { namespacedObjectMetaSchema, objectConditionSchema, templateMetaSchema } from './meta.js';
import { labelsSchema, objectNameSchema } from './names.js';
import { optional } from './optional.js';
import { persistentVolumeClaimSpecSchema } from './persistent-volume-claim.js';
import { resourceListSchema } from './quantity.js';
import { tolerationSchema } from './taint.js';
import { topologySpreadConstraintSchema } from './topology-spread.js';

/**
 * A pod volume. Only the sources that tie a pod to storage topology are modelled: a claim by
 * name, or an ephemeral claim created from a template (named `<pod>-<volume>`). Other sources
 * pass through untouched.
 */
export const volumeSchema = z.looseObject({
  name: objectNameSchema,
  persistentVolumeClaim: optional(
    z.looseObject({
      claimName: z.string().min(1, { error: 'must not be empty' }),
      readOnly: optional(z.boolean()),
    }),
  ),
  ephemeral: optional(
    z.looseObject({
      volumeClaimTemplate: z.looseObject({
        metadata: optional(templateMetaSchema),
        spec: persistentVolumeClaimSpecSchema,
      }),
    }),
  ),
});
export type Volume = z.output<typeof volumeSchema>;

export const DefaultSchedulerName = 'default-scheduler';

const podSpecObject = z.looseObject({
  nodeName: optional(z.string()),
  nodeSelector: optional(labelsSchema),
  affinity: optional(affinitySchema),
  tolerations: optional(z.array(tolerationSchema)),
  topologySpreadConstraints: optional(z.array(topologySpreadConstraintSchema)),
  containers: z.array(containerSchema).min(1, { error: 'must have at least one container' }),
  initContainers: optional(z.array(initContainerSchema)),
  overhead: optional(resourceListSchema),
  /** Pod-level requests and limits (Kubernetes 1.32+); when set they bound the containers'. */
  resources: optional(
    z.looseObject({ requests: optional(resourceListSchema), limits: optional(resourceListSchema) }),
  ),
  priority: optional(z.number().int({ error: 'must be a whole number' })),
  priorityClassName: optional(z.string()),
  preemptionPolicy: optional(z.enum(['PreemptLowerPriority', 'Never'])),
  volumes: optional(z.array(volumeSchema)),
  schedulerName: optional(z.string()).transform((name) => name ?? DefaultSchedulerName),
  hostNetwork: optional(z.boolean()),
  terminationGracePeriodSeconds: optional(z.number().int({ error: 'must be a whole number of seconds' })),
});

/**
 * A pod spec, with what the API server checks across fields: unique container and volume
 * names, unique host ports (per protocol and host IP), at most one constraint per topology key
 * and whenUnsatisfiable, and host ports equal to container ports under hostNetwork.
 * `schedulerName` defaults to `default-scheduler`.
 */
export const podSpecSchema = podSpecObject.superRefine((spec, ctx) => {
  const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const names = new Map<string, string>();
  const containerGroups: Array<['containers' | 'initContainers', readonly (Container | InitContainer)[]]> = [
    ['initContainers', spec.initContainers ?? []],
    ['containers', spec.containers],
  ];
  for (const [field, containers] of containerGroups) {
    for (const [i, c] of containers.entries()) {
      const seen = names.get(c.name);
      if (seen !== undefined)
        issue([field, i, 'name'], `${JSON.stringify(c.name)} is already used by ${seen}`);
      else names.set(c.name, `${field}[${i}]`);
    }
  }
  const volumes = new Set<string>();
  for (const [i, v] of (spec.volumes ?? []).entries()) {
    if (volumes.has(v.name))
      issue(['volumes', i, 'name'], `${JSON.stringify(v.name)} is used by another volume`);
    volumes.add(v.name);
  }
  for (const [field, containers] of containerGroups) {
    // Init containers run before the app containers, so each group claims host ports apart.
    const hostPorts = new Set<string>();
    for (const [i, c] of containers.entries()) {
      for (const [j, port] of (c.ports ?? []).entries()) {
        const hostPort = port.hostPort ?? 0;
        if (spec.hostNetwork === true && hostPort !== 0 && hostPort !== port.containerPort) {
          issue([field, i, 'ports', j, 'hostPort'], 'must equal containerPort when hostNetwork is true');
        }
        if (hostPort === 0) continue;
        const key = `${hostPort}/${port.protocol}/${port.hostIP ?? ''}`;
        if (hostPorts.has(key)) {
          issue(
            [field, i, 'ports', j, 'hostPort'],
            `${hostPort}/${port.protocol} is already claimed by this pod`,
          );
        }
        hostPorts.add(key);
      }
    }
  }
  const spreads = new Set<string>();
  for (const [i, c] of (spec.topologySpreadConstraints ?? []).entries()) {
    const key = `${c.topologyKey}\u0000${c.whenUnsatisfiable}`;
    if (spreads.has(key)) {
      issue(
        ['topologySpreadConstraints', i],
        `duplicates another constraint with topologyKey ${c.topologyKey} and whenUnsatisfiable ${c.whenUnsatisfiable}`,
      );
    }
    spreads.add(key);
  }
});
export type PodSpec = z.output<typeof podSpecSchema>;

/** A pod template (DaemonSets, and anything else that stamps out pods). */
export const podTemplateSpecSchema = z.looseObject({
  metadata: optional(templateMetaSchema).transform((meta) => meta ?? {}),
  spec: podSpecSchema,
});
export type PodTemplateSpec = z.output<typeof podTemplateSpecSchema>;

export const podPhases = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;
export type PodPhase = (typeof podPhases)[number];

export const podStatusSchema = z.looseObject({
  phase: optional(z.enum(podPhases)),
  conditions: optional(z.array(objectConditionSchema)),
  nominatedNodeName: optional(z.string()),
  startTime: optional(z.string()),
});
export type PodStatus = z.output<typeof podStatusSchema>;

/**
 * A v1 Pod. Without `spec.nodeName` it is pending; with it, it runs on that node. A missing
 * namespace is `default`.
 */
export const podSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Pod'),
  metadata: namespacedObjectMetaSchema,
  spec: podSpecSchema,
  status: optional(podStatusSchema),
});
export type Pod = z.output<typeof podSchema>;
