import type { Manifest } from '@nodewright/core/manifests';
import { describe, expect, it } from 'vitest';
import { expandWorkloads, MaxPodsPerWorkload } from './expand-workloads.js';

function manifest(object: Record<string, unknown>, line = 1): Manifest {
  const meta = object.metadata as { name?: string };
  const kind = String(object.kind);
  return {
    apiVersion: String(object.apiVersion),
    kind,
    ...(meta.name === undefined ? {} : { name: meta.name }),
    id: `${kind}/${meta.name}`,
    object,
    source: { file: 'in.yaml', document: 0, ordinal: 1, line, lineOf: () => line },
  };
}

const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
const workload = (apiVersion: string, kind: string, spec: Record<string, unknown>, metadata = {}) =>
  manifest({ apiVersion, kind, metadata: { name: 'w', ...metadata }, spec });

describe('expandWorkloads', () => {
  it('makes replicas pods for Deployments, ReplicaSets and StatefulSets, one when unset', () => {
    for (const kind of ['Deployment', 'ReplicaSet', 'StatefulSet']) {
      const three = expandWorkloads([workload('apps/v1', kind, { replicas: 3, template })]);
      expect(three.manifests.map((m) => m.name)).toEqual(['w-0', 'w-1', 'w-2']);
      expect(three.manifests.every((m) => m.kind === 'Pod' && m.apiVersion === 'v1')).toBe(true);
      expect(expandWorkloads([workload('apps/v1', kind, { template })]).manifests).toHaveLength(1);
      expect(expandWorkloads([workload('apps/v1', kind, { replicas: 0, template })]).manifests).toHaveLength(
        0,
      );
    }
  });

  it("gives each pod the template's labels, the workload's namespace and an owner reference", () => {
    const [pod] = expandWorkloads([
      workload('apps/v1', 'Deployment', { template }, { namespace: 'ns' }),
    ]).manifests;
    expect(pod?.object).toMatchObject({
      metadata: {
        name: 'w-0',
        namespace: 'ns',
        labels: { app: 'a' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'w', controller: true }],
      },
      spec: template.spec,
    });
    expect(pod?.id).toBe('Pod/w-0 (from Deployment/w)');
  });

  it('runs min(parallelism, completions) pods for a Job, and a CronJob its job template', () => {
    expect(
      expandWorkloads([workload('batch/v1', 'Job', { parallelism: 4, template })]).manifests,
    ).toHaveLength(4);
    expect(
      expandWorkloads([workload('batch/v1', 'Job', { parallelism: 4, completions: 2, template })]).manifests,
    ).toHaveLength(2);
    const cron = workload('batch/v1', 'CronJob', { jobTemplate: { spec: { parallelism: 2, template } } });
    expect(expandWorkloads([cron]).manifests).toHaveLength(2);
  });

  it('leaves a ReplicaSet to its Deployment when both are given, but expands an orphan one', () => {
    const deployment = workload('apps/v1', 'Deployment', { replicas: 2, template });
    const owned = manifest({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'w-5d8f',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'w' }],
      },
      spec: { replicas: 2, template },
    });
    const both = expandWorkloads([deployment, owned]);
    expect(both.manifests).toHaveLength(2);
    expect(both.notes).toContain(
      'in.yaml: ReplicaSet/w-5d8f: not expanded: its owner Deployment/w is in the input and is expanded instead',
    );
    expect(expandWorkloads([owned]).manifests).toHaveLength(2);
  });

  it('leaves Helm hooks out with a line saying why', () => {
    const hook = (name: string, value: string) =>
      manifest(
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, labels: { app: 'a' }, annotations: { 'helm.sh/hook': value } },
          spec: template.spec,
        },
        7,
      );
    const expansion = expandWorkloads([
      workload('apps/v1', 'Deployment', { replicas: 2, selector: { matchLabels: { app: 'a' } }, template }),
      hook('test-connection', 'test'),
      hook('migrate', 'pre-install,pre-upgrade'),
    ]);
    // The test pod matches the Deployment's selector, yet is no replica of it.
    expect(expansion.manifests.map((m) => m.name)).toEqual(['w-0', 'w-1']);
    expect(expansion.notes).toEqual([
      'in.yaml: Pod/test-connection: skipped: a Helm hook (helm.sh/hook: test): runs only on helm test (line 7)',
      'in.yaml: Pod/migrate: skipped: a Helm hook (helm.sh/hook: pre-install,pre-upgrade): runs around helm install/upgrade/delete, not with the deployed chart (line 7)',
      'in.yaml: Deployment/w: expanded into 2 pending pods (replicas 2)',
    ]);
  });

  it('counts only running or pending pods of the input as replicas, not finished or deleting ones', () => {
    const given = (name: string, extra: Record<string, unknown>) =>
      manifest({
        apiVersion: 'v1',
        kind: 'Pod',
        ...extra,
        metadata: { name, labels: { app: 'a' }, ...((extra.metadata as object | undefined) ?? {}) },
        spec: template.spec,
      });
    const expansion = expandWorkloads([
      workload('apps/v1', 'Deployment', { replicas: 3, selector: { matchLabels: { app: 'a' } }, template }),
      given('running', { status: { phase: 'Running' } }),
      given('done', { status: { phase: 'Succeeded' } }),
      given('failed', { status: { phase: 'Failed' } }),
      given('going', {
        metadata: { deletionTimestamp: '2024-06-03T13:00:00Z' },
        status: { phase: 'Running' },
      }),
    ]);
    expect(expansion.notes).toContain(
      'in.yaml: Deployment/w: expanded into 2 pending pods (replicas 3, 1 already in the input)',
    );
  });

  it('makes no pods for a finished Job and fewer as its pods succeed', () => {
    const job = (status: Record<string, unknown>) =>
      manifest({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j' },
        spec: { parallelism: 3, completions: 5, template },
        status,
      });
    const complete = expandWorkloads([
      job({ succeeded: 5, conditions: [{ type: 'Complete', status: 'True' }] }),
    ]);
    expect(complete.manifests).toEqual([]);
    expect(complete.notes).toEqual(['in.yaml: Job/j: expanded into 0 pending pods (the Job is Complete)']);
    const failed = expandWorkloads([job({ failed: 1, conditions: [{ type: 'Failed', status: 'True' }] })]);
    expect(failed.manifests).toEqual([]);
    const partway = expandWorkloads([job({ succeeded: 3 })]);
    expect(partway.notes).toEqual([
      'in.yaml: Job/j: expanded into 2 pending pods (parallelism 3, completions 5, 3 succeeded)',
    ]);
  });

  it('keeps other objects as they are and reports workloads it cannot expand', () => {
    const pool = manifest({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'p' },
      spec: {},
    });
    const result = expandWorkloads([
      pool,
      workload('apps/v1', 'Deployment', { replicas: 1 }),
      workload('apps/v1', 'StatefulSet', { replicas: -1, template }),
      workload('apps/v1', 'Deployment', { replicas: MaxPodsPerWorkload + 1, template }),
    ]);
    expect(result.manifests).toEqual([pool]);
    expect(result.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'spec.template.spec: is required to expand this workload',
      'spec.replicas: must be a whole number >= 0, not -1',
      `spec.replicas: ${MaxPodsPerWorkload + 1} pods is more than --expand-workloads makes from one workload (${MaxPodsPerWorkload})`,
    ]);
  });
});
