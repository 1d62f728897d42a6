import type { UntypedObject } from '@nodewright/core/kube';

/** `spec.template.spec.nodeClassRef` of a NodePool. */
export interface NodeClassRef {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
}

/** A `NodeSelectorRequirement` with Karpenter's optional minValues. */
export interface Requirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | 'Gte' | 'Lte';
  readonly values?: readonly string[];
  readonly minValues?: number;
}

/** What the suite varies between its NodePools. */
export interface NodePoolOptions {
  readonly name: string;
  readonly nodeClassRef: NodeClassRef;
  readonly requirements: readonly Requirement[];
  /** `spec.template.metadata.labels`. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Default `5s`, so consolidation acts within a test's time. */
  readonly consolidateAfter?: string;
  readonly consolidationPolicy?: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
  /** Default one budget of 100 %: only tests about budgets restrict them. */
  readonly budgets?: readonly { readonly nodes: string; readonly reasons?: readonly string[] }[];
  /** Default `Never`, so no node expires mid-test unless a test asks for it. */
  readonly expireAfter?: string;
  /** `spec.limits`; none by default. */
  readonly limits?: Readonly<Record<string, string>>;
}

/** A karpenter.sh/v1 NodePool for the suite. */
export function nodePoolManifest(options: NodePoolOptions): UntypedObject {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: options.name },
    spec: {
      template: {
        metadata: { labels: { ...(options.labels ?? {}) } },
        spec: {
          nodeClassRef: { ...options.nodeClassRef },
          requirements: options.requirements.map((r) => ({
            ...r,
            ...(r.values ? { values: [...r.values] } : {}),
          })),
          expireAfter: options.expireAfter ?? 'Never',
        },
      },
      disruption: {
        consolidationPolicy: options.consolidationPolicy ?? 'WhenEmptyOrUnderutilized',
        consolidateAfter: options.consolidateAfter ?? '5s',
        budgets: (options.budgets ?? [{ nodes: '100%' }]).map((b) => ({
          nodes: b.nodes,
          ...(b.reasons ? { reasons: [...b.reasons] } : {}),
        })),
      },
      ...(options.limits === undefined ? {} : { limits: { ...options.limits } }),
    },
  };
}

/** What the suite varies between its Deployments. */
export interface DeploymentOptions {
  readonly name: string;
  readonly namespace: string;
  readonly replicas: number;
  /** The only NodePool whose nodes may run these pods (a nodeSelector on karpenter.sh/nodepool). */
  readonly nodePool: string;
  /** Per pod, e.g. `{ cpu: '1500m', memory: '256Mi' }`. */
  readonly requests: Readonly<Record<string, string>>;
  /** One pod per node (required anti-affinity on the hostname), so node counts are exact. */
  readonly onePodPerNode?: boolean;
  readonly podAnnotations?: Readonly<Record<string, string>>;
}

/** The label every suite pod carries with its Deployment's name. */
export const AppLabel = 'e2e.nodewright.io/app';

/** An apps/v1 Deployment of pause containers that terminate at once. */
export function deploymentManifest(options: DeploymentOptions): UntypedObject {
  const labels = { [AppLabel]: options.name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: options.name, namespace: options.namespace, labels },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels, annotations: { ...(options.podAnnotations ?? {}) } },
        spec: {
          terminationGracePeriodSeconds: 0,
          nodeSelector: { 'karpenter.sh/nodepool': options.nodePool },
          ...(options.onePodPerNode
            ? {
                affinity: {
                  podAntiAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: [
                      { labelSelector: { matchLabels: labels }, topologyKey: 'kubernetes.io/hostname' },
                    ],
                  },
                },
              }
            : {}),
          containers: [
            {
              name: 'pause',
              image: 'registry.k8s.io/pause:3.10',
              resources: { requests: { ...options.requests } },
            },
          ],
        },
      },
    },
  };
}

/** A policy/v1 PodDisruptionBudget over one suite Deployment's pods. */
export function pdbManifest(options: {
  readonly name: string;
  readonly namespace: string;
  readonly app: string;
  readonly minAvailable: number;
}): UntypedObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: options.name, namespace: options.namespace },
    spec: { minAvailable: options.minAvailable, selector: { matchLabels: { [AppLabel]: options.app } } },
  };
}
