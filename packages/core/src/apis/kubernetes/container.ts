import { z } from 'zod';
import { objectNameSchema } from './names.js';
import { optional } from './optional.js';
import { approximateQuantity, resourceListSchema } from './quantity.js';

/**
 * Requests and limits. A request above its limit is rejected as the API server rejects it; a
 * limit without a request is the request too, which Kubernetes applies at admission and the
 * consumers of this schema apply when they read requests.
 */
export const resourceRequirementsSchema = z
  .looseObject({
    requests: optional(resourceListSchema),
    limits: optional(resourceListSchema),
    claims: optional(z.array(z.looseObject({ name: z.string() }))),
  })
  .superRefine((r, ctx) => {
    for (const [name, request] of Object.entries(r.requests ?? {})) {
      const limit = r.limits?.[name];
      if (limit !== undefined && approximateQuantity(request) > approximateQuantity(limit)) {
        ctx.addIssue({
          code: 'custom',
          path: ['requests', name],
          message: `must be less than or equal to the ${name} limit (${limit})`,
        });
      }
    }
  });
export type ResourceRequirements = z.output<typeof resourceRequirementsSchema>;

const portNumber = (min: number) =>
  z
    .number()
    .int({ error: `must be a whole number from ${min} to 65535` })
    .min(min, { error: `must be from ${min} to 65535` })
    .max(65535, { error: `must be from ${min} to 65535` });

/**
 * A container port. `hostPort` (0 or absent for none) claims the port on the node, which is
 * what the scheduler checks; `protocol` defaults to TCP as the API server defaults it.
 */
export const containerPortSchema = z.looseObject({
  name: optional(z.string()),
  containerPort: portNumber(1),
  hostPort: optional(portNumber(0)),
  protocol: optional(z.enum(['TCP', 'UDP', 'SCTP'])).transform((p) => p ?? 'TCP'),
  hostIP: optional(z.string()),
});
export type ContainerPort = z.output<typeof containerPortSchema>;

const containerFields = {
  name: objectNameSchema,
  image: optional(z.string()),
  resources: optional(resourceRequirementsSchema),
  ports: optional(z.array(containerPortSchema)),
};

/** An app container. `restartPolicy` belongs to init containers only, as in Kubernetes. */
export const containerSchema = z.looseObject({
  ...containerFields,
  restartPolicy: optional(z.never({ error: 'may only be set on init containers' })),
});
export type Container = z.output<typeof containerSchema>;

/**
 * An init container. With `restartPolicy: Always` it is a sidecar: it keeps running beside the
 * app containers, so its requests add to theirs rather than only to the init phase's peak.
 */
export const initContainerSchema = z.looseObject({
  ...containerFields,
  restartPolicy: optional(
    z.literal('Always', { error: 'must be Always (the only policy an init container may set)' }),
  ),
});
export type InitContainer = z.output<typeof initContainerSchema>;
