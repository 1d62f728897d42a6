import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { podSchema, podTemplateSpecSchema } from './pod.js';

const errorsOf = (value: unknown) =>
  fieldErrors(podSchema.safeParse(value).error?.issues ?? []).map((e) => [e.path, e.message]);

const pod = (spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1' },
  spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '500m' } } }], ...spec },
  ...extra,
});

describe('podSchema', () => {
  it('parses a pending pod with the defaults the API server or kubectl would apply', () => {
    const parsed = podSchema.parse(pod());
    expect(parsed.metadata.namespace).toBe('default');
    expect(parsed.spec.schedulerName).toBe('default-scheduler');
    expect(parsed.spec.nodeName).toBeUndefined();
  });

  it('keeps an explicit namespace and scheduler', () => {
    const parsed = podSchema.parse(
      pod({ schedulerName: 'custom' }, { metadata: { name: 'a', namespace: 'team-a' } }),
    );
    expect(parsed.metadata.namespace).toBe('team-a');
    expect(parsed.spec.schedulerName).toBe('custom');
  });

  it('parses every field the autoscaler reads', () => {
    const full = pod(
      {
        nodeName: 'node-a',
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }],
            },
          },
        },
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
        ],
        initContainers: [
          { name: 'proxy', restartPolicy: 'Always', resources: { requests: { memory: '64Mi' } } },
        ],
        overhead: { cpu: '10m' },
        priority: 1000,
        priorityClassName: 'high',
        volumes: [
          { name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } },
          {
            name: 'scratch',
            ephemeral: {
              volumeClaimTemplate: {
                spec: { storageClassName: 'gp3', resources: { requests: { storage: '1Gi' } } },
              },
            },
          },
          { name: 'config', configMap: { name: 'web' } },
        ],
      },
      {
        metadata: {
          name: 'web-1',
          namespace: 'shop',
          uid: '1234',
          labels: { app: 'web' },
          annotations: { 'karpenter.sh/do-not-disrupt': 'true' },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', controller: true }],
          creationTimestamp: '2024-05-01T12:00:00Z',
          deletionTimestamp: '2024-05-01T13:00:00.5+02:00',
        },
        status: {
          phase: 'Pending',
          conditions: [
            { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastProbeTime: null },
          ],
        },
      },
    );
    const parsed = podSchema.parse(full);
    expect(parsed.spec.volumes?.[2]).toEqual({ name: 'config', configMap: { name: 'web' } });
    expect(parsed.status?.conditions?.[0]?.reason).toBe('Unschedulable');
    expect(parsed.spec.initContainers?.[0]?.restartPolicy).toBe('Always');
    expect(parsed.metadata.ownerReferences?.[0]?.kind).toBe('ReplicaSet');
  });

  it('lets unknown fields through at every level', () => {
    const parsed = podSchema.parse(
      pod({ dnsPolicy: 'ClusterFirst' }, { metadata: { name: 'x', managedFields: [] }, extra: { a: 1 } }),
    );
    expect(parsed.spec).toHaveProperty('dnsPolicy', 'ClusterFirst');
    expect(parsed.metadata).toHaveProperty('managedFields');
    expect(parsed).toHaveProperty('extra');
  });

  it('requires name, containers, and the right apiVersion', () => {
    expect(errorsOf({ apiVersion: 'v2', kind: 'Pod', metadata: {}, spec: { containers: [] } })).toEqual([
      ['apiVersion', 'must be v1'],
      ['metadata.name', 'is required'],
      ['spec.containers', 'must have at least one container'],
    ]);
  });

  it('rejects malformed timestamps and phases', () => {
    expect(
      errorsOf(
        pod({}, { metadata: { name: 'x', creationTimestamp: 'yesterday' }, status: { phase: 'Done' } }),
      ),
    ).toEqual([
      ['metadata.creationTimestamp', 'must be an RFC 3339 timestamp such as 2024-05-01T12:00:00Z'],
      ['status.phase', 'must be one of Pending, Running, Succeeded, Failed, Unknown'],
    ]);
  });

  it('rejects duplicate container and volume names', () => {
    expect(
      errorsOf(
        pod({
          initContainers: [{ name: 'app' }],
          volumes: [{ name: 'v' }, { name: 'v' }],
        }),
      ),
    ).toEqual([
      ['spec.containers[0].name', '"app" is already used by initContainers[0]'],
      ['spec.volumes[1].name', '"v" is used by another volume'],
    ]);
  });

  it('rejects a host port claimed twice for the same protocol and IP, but not for another protocol', () => {
    const containers = [
      { name: 'a', ports: [{ containerPort: 53, hostPort: 53 }] },
      {
        name: 'b',
        ports: [
          { containerPort: 53, hostPort: 53, protocol: 'UDP' },
          { containerPort: 54, hostPort: 53 },
        ],
      },
    ];
    expect(errorsOf(pod({ containers }))).toEqual([
      ['spec.containers[1].ports[1].hostPort', '53/TCP is already claimed by this pod'],
    ]);
  });

  it('under hostNetwork a host port must equal its container port', () => {
    expect(
      errorsOf(
        pod({ hostNetwork: true, containers: [{ name: 'a', ports: [{ containerPort: 80, hostPort: 81 }] }] }),
      ),
    ).toEqual([
      ['spec.containers[0].ports[0].hostPort', 'must equal containerPort when hostNetwork is true'],
    ]);
  });

  it('rejects two spread constraints with the same key and whenUnsatisfiable', () => {
    const c = { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' };
    expect(errorsOf(pod({ topologySpreadConstraints: [c, { ...c, maxSkew: 2 }] }))).toEqual([
      [
        'spec.topologySpreadConstraints[1]',
        'duplicates another constraint with topologyKey zone and whenUnsatisfiable DoNotSchedule',
      ],
    ]);
  });

  it('checks nodeSelector label syntax and the priority type', () => {
    expect(errorsOf(pod({ nodeSelector: { zone: 'a b' }, priority: 'high' })).map(([p]) => p)).toEqual([
      'spec.nodeSelector.zone',
      'spec.priority',
    ]);
  });
});

describe('podTemplateSpecSchema', () => {
  it('accepts kubectl output with null metadata fields', () => {
    const parsed = podTemplateSpecSchema.parse({
      metadata: { creationTimestamp: null, labels: { app: 'agent' } },
      spec: { containers: [{ name: 'agent', resources: {} }] },
    });
    expect(parsed.metadata.creationTimestamp).toBeUndefined();
    expect(parsed.metadata.labels).toEqual({ app: 'agent' });
  });

  it('treats absent metadata as empty', () => {
    expect(podTemplateSpecSchema.parse({ spec: { containers: [{ name: 'a' }] } }).metadata).toEqual({});
  });
});
