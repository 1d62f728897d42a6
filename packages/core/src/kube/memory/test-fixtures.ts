import { FakeClock } from '../../clock/clock.js';
import type { KubeObject } from '../object.js';
import type { PodLike } from '../pod.js';
import { resourceType } from '../resource-type.js';
import { MemoryCluster, type MemoryClusterOptions } from './memory-cluster.js';

/** A cluster-scoped custom kind with a status subresource, like NodeClaim. */
export const Widgets = resourceType<Widget>({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  namespaced: false,
  statusSubresource: true,
});

/** A namespaced custom kind without a status subresource. */
export const Gadgets = resourceType<Gadget>({
  apiVersion: 'example.com/v1',
  kind: 'Gadget',
  namespaced: true,
});

export interface Widget extends KubeObject {
  spec?: { size?: number; color?: string; tags?: string[]; nested?: Record<string, unknown> };
  status?: { phase?: string; ready?: boolean };
}

export interface Gadget extends KubeObject {
  spec?: { value?: string };
  status?: { seen?: boolean };
}

export const START = Date.parse('2026-03-01T12:00:00Z');

/** A fresh cluster on a fake clock serving Widgets and Gadgets. */
export function newCluster(options: Partial<MemoryClusterOptions> = {}): {
  cluster: MemoryCluster;
  clock: FakeClock;
} {
  const clock = new FakeClock(START);
  const cluster = new MemoryCluster({ clock, kinds: [Widgets, Gadgets], ...options });
  return { cluster, clock };
}

export function widget(name: string, spec: Widget['spec'] = {}, extra: Partial<Widget> = {}): Widget {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec, ...extra };
}

/** A pod bound to a node, Running and Ready unless said otherwise. */
export function podObject(
  name: string,
  options: {
    namespace?: string;
    labels?: Record<string, string>;
    nodeName?: string;
    ownerReferences?: KubeObject['metadata']['ownerReferences'];
    finalizers?: string[];
    terminationGracePeriodSeconds?: number;
  } = {},
): KubeObject & { spec: Record<string, unknown> } {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      ...(options.labels ? { labels: options.labels } : {}),
      ...(options.ownerReferences ? { ownerReferences: options.ownerReferences } : {}),
      ...(options.finalizers ? { finalizers: options.finalizers } : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'busybox' }],
      ...(options.nodeName === undefined
        ? { nodeName: 'node-1' }
        : options.nodeName === ''
          ? {}
          : { nodeName: options.nodeName }),
      ...(options.terminationGracePeriodSeconds === undefined
        ? {}
        : { terminationGracePeriodSeconds: options.terminationGracePeriodSeconds }),
    },
  };
}

/**
 * A pod with only what budget accounting reads: labels, readiness, a ReplicaSet controller
 * named `owner` (uid `<owner>-uid`), and optionally a deletionTimestamp.
 */
export function budgetPod(options: {
  name?: string;
  namespace?: string;
  labels: Record<string, string>;
  ready: boolean;
  owner?: string | undefined;
  deleting?: boolean;
}): PodLike {
  const { owner } = options;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: options.name ?? 'p',
      namespace: options.namespace ?? 'ns',
      labels: options.labels,
      ...(options.deleting ? { deletionTimestamp: '2026-03-01T12:00:00Z' } : {}),
      ...(owner === undefined
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                name: owner,
                uid: `${owner}-uid`,
                controller: true,
              },
            ],
          }),
    },
    status: { conditions: [{ type: 'Ready', status: options.ready ? 'True' : 'False' }] },
  };
}
