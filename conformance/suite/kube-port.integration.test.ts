import { randomUUID } from 'node:crypto';
import { generateCrd, type NodeClaim, nodeClaimKind } from '@nodewright/core/apis';
import { FakeClock, SystemClock, SystemTimers } from '@nodewright/core/clock';
import {
  ClientNodeCluster,
  type ClusterPort,
  ConfigMaps,
  type CoreEvent,
  type DeleteOptions,
  type EventInput,
  Events,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInternalError,
  isInvalid,
  isNotFound,
  isTooManyRequests,
  type KubeError,
  type KubeLogger,
  type KubeObject,
  kubeConfigFromFile,
  MemoryCluster,
  Namespaces,
  type ObjectKey,
  type OwnerReference,
  PodDisruptionBudgetStatusController,
  PodDisruptionBudgets,
  type PodLike,
  type ResourceType,
  referenceTo,
  resourceType,
  resourceTypeOf,
  Nodes as TypedNodes,
  Pods as TypedPods,
  type WatchEvent,
} from '@nodewright/core/kube';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE } from '../cluster/src/index.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Nodes: ResourceType = TypedNodes;
const Pods: ResourceType = TypedPods;

/*
 * One table of ClusterPort behaviours, run against the in-memory adapter and against
 * ClientNodeCluster on the real control plane the integration globalSetup starts. The checks
 * are the in-memory adapter's own unit tests, restated so a real kube-apiserver can answer
 * them: unique names per check, a namespace per check, and waiting where the real cluster is
 * asynchronous (watches, controllers, kwok). Where the two adapters disagree, `known()`
 * names the difference and which adapter is wrong.
 */

// ---------------------------------------------------------------------------------------------
// Test kinds: served by the memory adapter as registered kinds, by the real one as CRDs.

const GROUP = 'kubeport.nodewright.dev';

interface Widget extends KubeObject {
  spec?: { size?: number; color?: string; tags?: string[]; nested?: Record<string, unknown> };
  status?: { phase?: string; ready?: boolean };
}
interface Gadget extends KubeObject {
  spec?: { value?: string };
  status?: { seen?: boolean };
}

/** Cluster-scoped, with a status subresource (like NodeClaim). */
const Widgets = resourceType<Widget>({
  apiVersion: `${GROUP}/v1`,
  kind: 'Widget',
  namespaced: false,
  statusSubresource: true,
});
/** Namespaced, without a status subresource. */
const Gadgets = resourceType<Gadget>({ apiVersion: `${GROUP}/v1`, kind: 'Gadget', namespaced: true });
/** The shipped karpenter.sh/v1 NodeClaim, addressed the way controllers will address it. */
const NodeClaims = resourceTypeOf<NodeClaim>(nodeClaimKind);
const CustomResourceDefinitions = resourceType({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  statusSubresource: true,
});

function crd(kind: string, plural: string, scope: 'Cluster' | 'Namespaced', status: boolean, spec: object) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope,
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          ...(status ? { subresources: { status: {} } } : {}),
          schema: { openAPIV3Schema: { type: 'object', properties: spec } },
        },
      ],
    },
  };
}

const WIDGET_CRD = crd('Widget', 'widgets', 'Cluster', true, {
  spec: {
    type: 'object',
    properties: {
      size: { type: 'integer' },
      color: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      nested: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
  status: { type: 'object', properties: { phase: { type: 'string' }, ready: { type: 'boolean' } } },
});
const GADGET_CRD = crd('Gadget', 'gadgets', 'Namespaced', false, {
  spec: { type: 'object', properties: { value: { type: 'string' } } },
  status: { type: 'object', properties: { seen: { type: 'boolean' } } },
});

// ---------------------------------------------------------------------------------------------
// What a check gets.

type AdapterName = 'memory' | 'client-node';

/**
 * Behaviours where the adapters disagree. Each is a bug in the adapter named `wrong`; the
 * checks assert what each adapter does today, so fixing one turns its check red on purpose.
 */
const KNOWN_DIFFERENCES = {
  deletedObjectState: {
    wrong: 'client-node',
    note: 'DeleteResult.object of an immediate deletion: kube-apiserver answers most kinds (custom resources, ConfigMaps) with a Status, so ClientNodeCluster returns only apiVersion, kind, name, namespace and uid; memory returns the last state as the port documents',
  },
} as const satisfies Record<string, { wrong: AdapterName; note: string }>;

interface CheckContext {
  readonly adapter: AdapterName;
  readonly port: ClusterPort;
  /** A fresh namespace for this check. */
  readonly namespace: string;
  /** Labels unique to this check, for selectors over cluster-scoped kinds. */
  readonly labels: Record<string, string>;
  /** A name unique to this check (cluster-scoped kinds share one namespace across checks). */
  name(base: string): string;
  /** Creates another namespace for this check. */
  newNamespace(base: string): Promise<string>;
  /** Passes once `check` does: memory settles its work first, the real cluster is polled. */
  eventually(check: () => unknown, timeoutMs?: number): Promise<void>;
  /** Lets real time pass where a real cluster needs it (watch reconnects); no-op in memory. */
  pause(ms: number): Promise<void>;
  /** A pod that is Running and Ready in this check's namespace. */
  runningPod(name: string, labels: Record<string, string>, finalizers?: string[]): Promise<PodLike>;
  /** Waits until the disruption controller has observed a PDB and counts `healthy` pods. */
  budgetObserved(name: string, healthy?: number): Promise<void>;
  /** A resourceVersion the server no longer has history for. */
  expiredResourceVersion(): Promise<string>;
  /** The port, but with watches that reconnect every second (real); the same port in memory. */
  reconnecting(): ClusterPort;
  /** How many watch connections of `reconnecting()` ended and were resumed; undefined in memory. */
  reconnects(): number | undefined;
  /** Handler errors are expected: memory's settled() must not rethrow them. */
  tolerateHandlerErrors(): void;
  /** The value this adapter shows for a known difference. */
  known<T>(difference: keyof typeof KNOWN_DIFFERENCES, values: Record<AdapterName, T>): T;
}

interface Check {
  readonly name: string;
  run(ctx: CheckContext): Promise<void>;
}

async function failure(promise: Promise<unknown>): Promise<KubeError> {
  try {
    await promise;
  } catch (err) {
    return err as KubeError;
  }
  throw new Error('expected the call to fail');
}

function widget(name: string, spec: Widget['spec'] = {}, extra: Partial<Widget> = {}): Widget {
  return { apiVersion: Widgets.apiVersion, kind: 'Widget', metadata: { name }, spec, ...extra };
}

function gadget(name: string, namespace: string, value?: string, labels?: Record<string, string>): Gadget {
  return {
    apiVersion: Gadgets.apiVersion,
    kind: 'Gadget',
    metadata: { name, namespace, ...(labels ? { labels } : {}) },
    spec: value === undefined ? {} : { value },
  };
}

/**
 * A pod bound to `nodeName`, or, with `nodeName: ''`, one that stays Pending: its scheduler does
 * not exist, so kube-scheduler leaves it alone.
 */
function podObject(
  name: string,
  namespace: string,
  options: {
    labels?: Record<string, string>;
    nodeName?: string;
    ownerReferences?: KubeObject['metadata']['ownerReferences'];
    finalizers?: string[];
  } = {},
): KubeObject & { spec: Record<string, unknown> } {
  const nodeName = options.nodeName ?? 'node-1';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      ...(options.labels ? { labels: options.labels } : {}),
      ...(options.ownerReferences ? { ownerReferences: options.ownerReferences } : {}),
      ...(options.finalizers ? { finalizers: options.finalizers } : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'busybox' }],
      ...(nodeName === '' ? { schedulerName: 'kubeport-unscheduled' } : { nodeName }),
    },
  };
}

/** Records what a watch handler sees, as `TYPE name` lines plus resourceVersions. */
function recorder<T extends KubeObject>(describe: (object: T) => string = (o) => o.metadata.name ?? '') {
  const seen: string[] = [];
  const rvs: string[] = [];
  const handler = (event: WatchEvent<T>) => {
    if (event.type === 'ERROR') {
      seen.push(`ERROR ${event.error.reason}`);
      return;
    }
    seen.push(`${event.type} ${describe(event.object)}`);
    rvs.push(event.object.metadata.resourceVersion ?? '');
  };
  return { seen, rvs, handler };
}

// ---------------------------------------------------------------------------------------------
// The behavioural table.

const CHECKS: Check[] = [
  // create and get
  {
    name: 'create fills uid, resourceVersion, generation and creationTimestamp; get returns the same',
    async run({ port, name }) {
      const created = await port.create(Widgets, widget(name('a'), { size: 1 }));
      expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.metadata.generation).toBe(1);
      expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(created.apiVersion).toBe(Widgets.apiVersion);
      expect(created.kind).toBe('Widget');
      expect(await port.get(Widgets, { name: name('a') })).toEqual(created);
      const other = await port.create(Widgets, widget(name('b')));
      expect(other.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
      expect(other.metadata.uid).not.toBe(created.metadata.uid);
    },
  },
  {
    name: 'generateName appends five random characters',
    async run({ port, name }) {
      const prefix = `${name('w')}-`;
      const obj = await port.create(Widgets, { ...widget(''), metadata: { generateName: prefix } });
      expect(obj.metadata.name).toMatch(new RegExp(`^${prefix}[a-z0-9]{5}$`));
    },
  },
  {
    name: 'answers AlreadyExists for a taken name and NotFound for a missing one, in the server wording',
    async run({ port, name }) {
      await port.create(Widgets, widget(name('a')));
      const dup = await failure(port.create(Widgets, widget(name('a'))));
      expect(isAlreadyExists(dup)).toBe(true);
      expect(dup.code).toBe(409);
      expect(dup.message).toBe(`widgets.${GROUP} "${name('a')}" already exists`);
      const missing = await failure(port.get(Widgets, { name: name('nope') }));
      expect(isNotFound(missing)).toBe(true);
      expect(missing.message).toBe(`widgets.${GROUP} "${name('nope')}" not found`);
      expect(missing.details).toMatchObject({ name: name('nope'), group: GROUP, kind: 'widgets' });
    },
  },
  {
    name: 'rejects invalid names, missing names and a preset resourceVersion',
    async run({ port, name, namespace }) {
      expect(isInvalid(await failure(port.create(Pods, podObject('Bad_Name', namespace))))).toBe(true);
      expect(isInvalid(await failure(port.create(Widgets, { ...widget(''), metadata: {} })))).toBe(true);
      const withRv = widget(name('a'));
      withRv.metadata.resourceVersion = '5';
      const preset = await failure(port.create(Widgets, withRv));
      expect(preset.code).toBe(500);
      expect(preset.reason).toBe('Unknown');
      expect(preset.message).toBe('resourceVersion should not be set on objects to be created');
    },
  },
  {
    name: 'answers NotFound for kinds the server does not serve',
    async run({ port }) {
      const Unknown = resourceType({
        apiVersion: 'other.nodewright.dev/v1',
        kind: 'Thing',
        namespaced: false,
      });
      expect(isNotFound(await failure(port.list(Unknown)))).toBe(true);
      expect(isNotFound(await failure(port.get(Unknown, { name: 'x' })))).toBe(true);
    },
  },

  // namespaces
  {
    name: 'defaults namespaced objects to "default" and strips namespaces from cluster-scoped ones',
    async run({ port, name }) {
      const g = await port.create(Gadgets, {
        apiVersion: Gadgets.apiVersion,
        kind: 'Gadget',
        metadata: { name: name('g') },
      });
      try {
        expect(g.metadata.namespace).toBe('default');
      } finally {
        await port.delete(Gadgets, { name: name('g'), namespace: 'default' });
      }
      const w = await port.create(Widgets, {
        ...widget(name('w')),
        metadata: { name: name('w'), namespace: 'ignored' },
      });
      expect(w.metadata.namespace).toBeUndefined();
    },
  },
  {
    name: 'refuses content in a namespace that does not exist',
    async run({ port, name }) {
      const missing = name('missing');
      const err = await failure(port.create(Pods, podObject('p', missing)));
      expect(isNotFound(err)).toBe(true);
      expect(err.message).toBe(`namespaces "${missing}" not found`);
    },
  },
  {
    name: 'protects the default namespace',
    async run({ port }) {
      expect(isForbidden(await failure(port.delete(Namespaces, { name: 'default' })))).toBe(true);
      expect((await port.get(Namespaces, { name: 'default' })).metadata.deletionTimestamp).toBeUndefined();
    },
  },
  {
    name: 'keeps same-named objects in different namespaces apart',
    async run({ port, namespace, newNamespace, labels }) {
      const team = await newNamespace('team');
      await port.create(Pods, podObject('p', namespace, { labels, nodeName: '' }));
      await port.create(Pods, podObject('p', team, { labels, nodeName: '' }));
      const all = await port.list(Pods, { labelSelector: { matchLabels: labels } });
      expect(all.items.map((p) => p.metadata.namespace)).toEqual([namespace, team].sort());
      expect((await port.list(Pods, { namespace: team })).items.map((p) => p.metadata.name)).toEqual(['p']);
    },
  },

  // update and optimistic concurrency
  {
    name: 'update fails with Conflict on a stale resourceVersion',
    async run({ port, name }) {
      const v1 = await port.create(Widgets, widget(name('a'), { size: 1 }));
      const v2 = await port.update(Widgets, { ...v1, spec: { size: 2 } });
      expect(v2.metadata.resourceVersion).not.toBe(v1.metadata.resourceVersion);
      const err = await failure(port.update(Widgets, { ...v1, spec: { size: 3 } }));
      expect(isConflict(err)).toBe(true);
      expect(err.message).toBe(
        `Operation cannot be fulfilled on widgets.${GROUP} "${name('a')}": the object has been modified; please apply your changes to the latest version and try again`,
      );
      expect((await port.get(Widgets, { name: name('a') })).spec?.size).toBe(2);
    },
  },
  {
    name: 'sets metadata.generation on kinds that track it',
    async run({ port, name, namespace, labels }) {
      expect((await port.create(Widgets, widget(name('a')))).metadata.generation).toBe(1);
      expect((await port.create(Pods, podObject('p', namespace, { nodeName: '' }))).metadata.generation).toBe(
        1,
      );
      const cm = await port.create(ConfigMaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', namespace },
      });
      expect(cm.metadata.generation).toBeUndefined();
      const node = await port.create(Nodes, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: name('gen-node'), labels: { ...labels } },
      });
      try {
        expect(node.metadata.generation).toBeUndefined();
      } finally {
        await port.delete(Nodes, { name: name('gen-node') });
      }
    },
  },
  {
    name: 'update requires a resourceVersion for custom resources but not for built-in kinds',
    async run({ port, name, namespace }) {
      await port.create(Widgets, widget(name('a')));
      expect(isInvalid(await failure(port.update(Widgets, widget(name('a'), { size: 5 }))))).toBe(true);
      await port.create(ConfigMaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', namespace },
      });
      const cm = await port.update(ConfigMaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', namespace, labels: { a: 'b' } },
      });
      expect(cm.metadata.labels).toEqual({ a: 'b' });
    },
  },
  {
    name: 'bumps generation on spec changes only',
    async run({ port, name }) {
      const v1 = await port.create(Widgets, widget(name('a'), { size: 1 }));
      const labelled = await port.update(Widgets, {
        ...v1,
        metadata: { ...v1.metadata, labels: { x: 'y' } },
      });
      expect(labelled.metadata.generation).toBe(1);
      const resized = await port.update(Widgets, { ...labelled, spec: { size: 2 } });
      expect(resized.metadata.generation).toBe(2);
      const status = await port.updateStatus(Widgets, { ...resized, status: { phase: 'Ready' } });
      expect(status.metadata.generation).toBe(2);
    },
  },
  {
    name: 'does not write (or bump resourceVersion) when an update changes nothing',
    async run({ port, name }) {
      const v1 = await port.create(Widgets, widget(name('a'), { size: 1 }));
      const same = await port.update(Widgets, structuredClone(v1));
      expect(same.metadata.resourceVersion).toBe(v1.metadata.resourceVersion);
    },
  },
  {
    name: 'keeps server-owned metadata and rejects a different uid',
    async run({ port, name }) {
      const v1 = await port.create(Widgets, widget(name('a')));
      const tampered = structuredClone(v1);
      tampered.metadata.creationTimestamp = '2000-01-01T00:00:00Z';
      tampered.spec = { size: 1 };
      const v2 = await port.update(Widgets, tampered);
      expect(v2.metadata.creationTimestamp).toBe(v1.metadata.creationTimestamp);
      const wrongUid = { ...v2, metadata: { ...v2.metadata, uid: '00000000-0000-0000-0000-000000000000' } };
      expect(isConflict(await failure(port.update(Widgets, wrongUid)))).toBe(true);
    },
  },
  {
    name: 'answers NotFound when updating a missing object',
    async run({ port, name }) {
      const ghost = { ...widget(name('ghost')), metadata: { name: name('ghost'), resourceVersion: '1' } };
      expect(isNotFound(await failure(port.update(Widgets, ghost)))).toBe(true);
    },
  },
  {
    name: 'rejects more than one controller owner reference',
    async run({ port, namespace }) {
      const ref = (n: string) => ({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: n,
        uid: randomUUID(),
        controller: true,
      });
      const err = await failure(
        port.create(Pods, podObject('p', namespace, { ownerReferences: [ref('a'), ref('b')], nodeName: '' })),
      );
      expect(isInvalid(err)).toBe(true);
      expect(err.message).toContain('Only one reference can have Controller set to true');
    },
  },

  // status subresource
  {
    name: 'ignores status on create, update and patch of the main resource',
    async run({ port, name }) {
      const created = await port.create(
        Widgets,
        widget(name('a'), { size: 1 }, { status: { phase: 'Forged' } }),
      );
      expect(created.status).toBeUndefined();
      const withStatus = await port.updateStatus(Widgets, { ...created, status: { phase: 'Ready' } });
      const updated = await port.update(Widgets, {
        ...withStatus,
        spec: { size: 2 },
        status: { phase: 'Overwritten' },
      });
      expect(updated.status).toEqual({ phase: 'Ready' });
      expect(updated.spec?.size).toBe(2);
      const patched = await port.patch<Widget>(
        Widgets,
        { name: name('a') },
        { status: { phase: 'Nope' }, spec: { size: 3 } },
      );
      expect(patched.status).toEqual({ phase: 'Ready' });
      expect(patched.spec?.size).toBe(3);
    },
  },
  {
    name: 'changes only status through updateStatus and patchStatus',
    async run({ port, name }) {
      const created = await port.create(Widgets, widget(name('a'), { size: 1 }));
      const out = await port.updateStatus(Widgets, {
        ...created,
        metadata: { ...created.metadata, labels: { sneaky: 'yes' } },
        spec: { size: 100 },
        status: { phase: 'Ready' },
      });
      expect(out.spec?.size).toBe(1);
      expect(out.metadata.labels).toBeUndefined();
      expect(out.status).toEqual({ phase: 'Ready' });
      const patched = await port.patchStatus<Widget>(
        Widgets,
        { name: name('a') },
        { status: { ready: true }, spec: { size: 7 } },
      );
      expect(patched.status).toEqual({ phase: 'Ready', ready: true });
      expect(patched.spec?.size).toBe(1);
    },
  },
  {
    name: 'applies optimistic concurrency to status writes too',
    async run({ port, name }) {
      const created = await port.create(Widgets, widget(name('a')));
      await port.updateStatus(Widgets, { ...created, status: { phase: 'One' } });
      expect(
        isConflict(await failure(port.updateStatus(Widgets, { ...created, status: { phase: 'Two' } }))),
      ).toBe(true);
    },
  },
  {
    name: 'resets pod status on create, as the pod strategy does',
    async run({ port, namespace }) {
      const pod = await port.create(Pods, {
        ...podObject('p', namespace, { nodeName: '' }),
        status: { phase: 'Running' },
      } as KubeObject);
      expect((pod as PodLike).status?.phase).toBe('Pending');
    },
  },
  {
    name: 'treats status as an ordinary field for kinds without the subresource',
    async run({ port, namespace }) {
      const g = await port.create(Gadgets, { ...gadget('g', namespace), status: { seen: true } });
      expect(g.status).toEqual({ seen: true });
      expect(isNotFound(await failure(port.updateStatus(Gadgets, g)))).toBe(true);
      expect(
        isNotFound(await failure(port.patchStatus(Gadgets, { name: 'g', namespace }, { status: {} }))),
      ).toBe(true);
    },
  },

  // merge patch
  {
    name: 'merge patch merges maps, deletes with null and replaces lists',
    async run({ port, name }) {
      await port.create(
        Widgets,
        widget(
          name('a'),
          { size: 1, color: 'red', tags: ['x', 'y'] },
          { metadata: { name: name('a'), labels: { keep: '1', drop: '2' } } },
        ),
      );
      const out = await port.patch<Widget>(
        Widgets,
        { name: name('a') },
        { metadata: { labels: { drop: null, add: '3' } }, spec: { color: null, tags: ['z'] } },
      );
      expect(out.metadata.labels).toEqual({ keep: '1', add: '3' });
      expect(out.spec).toEqual({ size: 1, tags: ['z'] });
    },
  },
  {
    name: 'merge patch honours a resourceVersion precondition, in the options or in the patch',
    async run({ port, name }) {
      const key = { name: name('a') };
      const v1 = await port.create(Widgets, widget(name('a'), { size: 1 }));
      await port.patch(Widgets, key, { spec: { size: 2 } });
      const stale = v1.metadata.resourceVersion as string;
      expect(
        isConflict(
          await failure(port.patch(Widgets, key, { spec: { size: 3 } }, { resourceVersion: stale })),
        ),
      ).toBe(true);
      expect(
        isConflict(
          await failure(
            port.patch(Widgets, key, { metadata: { resourceVersion: stale }, spec: { size: 3 } }),
          ),
        ),
      ).toBe(true);
      const current = await port.get(Widgets, key);
      const ok = await port.patch<Widget>(
        Widgets,
        key,
        { spec: { size: 4 } },
        { resourceVersion: current.metadata.resourceVersion as string },
      );
      expect(ok.spec?.size).toBe(4);
    },
  },
  {
    name: 'merge patch refuses to rename and answers NotFound for a missing object',
    async run({ port, name }) {
      await port.create(Widgets, widget(name('a')));
      expect(
        isBadRequest(await failure(port.patch(Widgets, { name: name('a') }, { metadata: { name: 'b' } }))),
      ).toBe(true);
      expect(isNotFound(await failure(port.patch(Widgets, { name: name('zz') }, { spec: {} })))).toBe(true);
    },
  },

  // list selectors
  {
    name: 'list filters by label selector in string and structured form',
    async run(ctx) {
      const { port, namespace } = ctx;
      const team = await seedPods(ctx);
      const names = async (options: Parameters<ClusterPort['list']>[1]) =>
        (await port.list(Pods, options)).items.map(
          (i) => `${i.metadata.namespace === team ? 'team/' : ''}${i.metadata.name}`,
        );
      const check = ctx.labels[CHECK_LABEL];
      // Sorted by namespace: kp-... before team-...
      expect(await names({ labelSelector: `app=web,tier!=back,${CHECK_LABEL}=${check}` })).toEqual([
        'web-1',
        'team/other',
      ]);
      expect(
        await names({
          namespace,
          labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
        }),
      ).toEqual(['web-1', 'web-2']);
    },
  },
  {
    name: 'list filters by field selector on name, namespace and spec.nodeName',
    async run(ctx) {
      const { port, namespace } = ctx;
      const team = await seedPods(ctx);
      const names = async (fieldSelector: string, ns?: string) =>
        (
          await port.list(Pods, {
            fieldSelector,
            labelSelector: { matchLabels: ctx.labels },
            ...(ns ? { namespace: ns } : {}),
          })
        ).items
          .map((i) => `${i.metadata.namespace === team ? 'team/' : ''}${i.metadata.name}`)
          .sort();
      expect(await names('spec.nodeName=node-1')).toEqual(['team/other', 'web-1']);
      expect(await names('spec.nodeName=')).toEqual(['pending']);
      expect(await names(`metadata.namespace!=${namespace}`)).toEqual(['team/other']);
      expect(await names('metadata.name=web-2')).toEqual(['web-2']);
      expect(await names('status.phase=Pending,spec.nodeName=node-2', namespace)).toEqual(['web-2']);
    },
  },
  {
    name: 'list rejects unsupported fields and unparsable selectors with BadRequest',
    async run({ port }) {
      expect(isBadRequest(await failure(port.list(Pods, { fieldSelector: 'spec.containers=x' })))).toBe(true);
      expect(isBadRequest(await failure(port.list(Widgets, { fieldSelector: 'spec.size=1' })))).toBe(true);
      expect(isBadRequest(await failure(port.list(Pods, { labelSelector: 'app in web' })))).toBe(true);
    },
  },
  {
    name: 'a watch from a list resourceVersion sees exactly the changes after the list',
    async run({ port, namespace, eventually }) {
      await port.create(Gadgets, gadget('before', namespace));
      const list = await port.list(Gadgets, { namespace });
      expect(list.items.map((g) => g.metadata.name)).toEqual(['before']);
      await port.create(Gadgets, gadget('after', namespace));
      const { seen, handler } = recorder<Gadget>();
      const w = port.watch(Gadgets, handler, { namespace, resourceVersion: list.resourceVersion });
      try {
        await w.synced;
        await eventually(() => expect(seen).toEqual(['ADDED after']));
      } finally {
        w.stop();
      }
    },
  },

  // deletion and finalizers
  {
    name: 'deletes an object without finalizers at once',
    async run({ port, name, known }) {
      const a = await port.create(Widgets, widget(name('a'), { size: 1 }));
      const result = await port.delete(Widgets, { name: name('a') });
      expect(result.deleted).toBe(true);
      expect(result.object).toMatchObject({ apiVersion: Widgets.apiVersion, kind: 'Widget' });
      expect(result.object.metadata).toMatchObject({ name: name('a'), uid: a.metadata.uid });
      expect((result.object as Widget).spec).toEqual(
        known('deletedObjectState', { memory: { size: 1 }, 'client-node': undefined }),
      );
      expect(isNotFound(await failure(port.get(Widgets, { name: name('a') })))).toBe(true);
      expect(isNotFound(await failure(port.delete(Widgets, { name: name('a') })))).toBe(true);
    },
  },
  {
    name: 'holds an object with finalizers until the last one is removed',
    async run({ port, name }) {
      const key = { name: name('a') };
      await port.create(Widgets, {
        ...widget(name('a'), { size: 1 }),
        metadata: { name: name('a'), finalizers: ['example.com/one', 'example.com/two'] },
      });
      const result = await port.delete(Widgets, key);
      expect(result.deleted).toBe(false);
      expect(result.object.metadata.deletionTimestamp).toBeDefined();
      expect(result.object.metadata.generation).toBe(2);
      const again = await port.delete(Widgets, key);
      expect(again.deleted).toBe(false);
      expect(again.object.metadata.deletionTimestamp).toBe(result.object.metadata.deletionTimestamp);
      const first = await port.patch<Widget>(Widgets, key, { metadata: { finalizers: ['example.com/two'] } });
      expect(first.metadata.finalizers).toEqual(['example.com/two']);
      const live = await port.get(Widgets, key);
      await port.update(Widgets, { ...live, metadata: { ...live.metadata, finalizers: [] } });
      expect(isNotFound(await failure(port.get(Widgets, key)))).toBe(true);
    },
  },
  {
    name: 'forbids adding finalizers to a deleting object but allows other updates',
    async run({ port, name }) {
      const key = { name: name('a') };
      await port.create(Widgets, {
        ...widget(name('a'), { size: 1 }),
        metadata: { name: name('a'), finalizers: ['example.com/one'] },
      });
      await port.delete(Widgets, key);
      const err = await failure(
        port.patch(Widgets, key, { metadata: { finalizers: ['example.com/one', 'example.com/new'] } }),
      );
      expect(isInvalid(err)).toBe(true);
      expect(err.message).toContain('no new finalizers can be added if the object is being deleted');
      const updated = await port.patch<Widget>(Widgets, key, {
        spec: { color: 'blue' },
        metadata: { labels: { a: 'b' } },
      });
      expect(updated.spec?.color).toBe('blue');
      expect(updated.metadata.deletionTimestamp).toBeDefined();
      await port.patch(Widgets, key, { metadata: { finalizers: null } });
    },
  },
  {
    name: 'keeps deletionTimestamp through updates and refuses setting it by hand',
    async run({ port, name }) {
      const a = await port.create(Widgets, widget(name('a')));
      const err = await failure(
        port.update(Widgets, {
          ...a,
          metadata: { ...a.metadata, deletionTimestamp: '2026-03-01T12:00:00Z' },
        }),
      );
      expect(isInvalid(err)).toBe(true);
      await port.create(Widgets, {
        ...widget(name('b')),
        metadata: { name: name('b'), finalizers: ['x.io/f'] },
      });
      const { object } = await port.delete(Widgets, { name: name('b') });
      const cleared = { ...object, metadata: { ...object.metadata } };
      delete cleared.metadata.deletionTimestamp;
      const after = await port.update(Widgets, { ...cleared, spec: { size: 2 } });
      expect(after.metadata.deletionTimestamp).toBe(object.metadata.deletionTimestamp);
      await port.patch(Widgets, { name: name('b') }, { metadata: { finalizers: null } });
    },
  },
  {
    name: 'checks uid and resourceVersion preconditions on delete',
    async run({ port, name }) {
      const key = { name: name('a') };
      const a = await port.create(Widgets, widget(name('a')));
      const wrongUid: DeleteOptions = { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } };
      expect(isConflict(await failure(port.delete(Widgets, key, wrongUid)))).toBe(true);
      await port.patch(Widgets, key, { spec: { size: 2 } });
      const stale = { resourceVersion: a.metadata.resourceVersion as string };
      const err = await failure(port.delete(Widgets, key, { preconditions: stale }));
      expect(isConflict(err)).toBe(true);
      const current = (await port.get(Widgets, key)).metadata.resourceVersion;
      expect(err.message).toBe(
        `Operation cannot be fulfilled on Widget.${GROUP} "${name('a')}": the ResourceVersion in the precondition (${stale.resourceVersion}) does not match the ResourceVersion in record (${current}). The object might have been modified`,
      );
      expect(err.details).toMatchObject({ name: name('a'), group: GROUP, kind: 'Widget' });
      const ok = await port.delete(Widgets, key, { preconditions: { uid: a.metadata.uid as string } });
      expect(ok.deleted).toBe(true);
    },
  },
  {
    name: 'a watch sees MODIFIED when deletion starts and DELETED when the object goes',
    async run({ port, name, labels, eventually }) {
      const { seen, handler } = recorder<Widget>((o) =>
        o.metadata.deletionTimestamp === undefined ? 'live' : 'deleting',
      );
      const w = port.watch(Widgets, handler, { labelSelector: { matchLabels: labels } });
      try {
        await w.synced;
        const key = { name: name('a') };
        await port.create(Widgets, {
          ...widget(name('a')),
          metadata: { name: name('a'), labels, finalizers: ['x.io/f'] },
        });
        await port.delete(Widgets, key);
        await port.patch(Widgets, key, { metadata: { finalizers: null } });
        await eventually(() => expect(seen).toEqual(['ADDED live', 'MODIFIED deleting', 'DELETED deleting']));
      } finally {
        w.stop();
      }
    },
  },
  {
    name: 'deletes an unscheduled pod at once',
    async run({ port, namespace }) {
      await port.create(Pods, podObject('p', namespace, { nodeName: '' }));
      expect((await port.delete(Pods, { name: 'p', namespace })).deleted).toBe(true);
      expect(isNotFound(await failure(port.get(Pods, { name: 'p', namespace })))).toBe(true);
    },
  },
  {
    name: 'empties a deleted namespace, refusing new content, and removes it when the last object goes',
    async run({ port, newNamespace, eventually }) {
      const team = await newNamespace('doomed');
      await port.create(Pods, podObject('a', team, { nodeName: '' }));
      await port.create(Pods, podObject('b', team, { nodeName: '', finalizers: ['x.io/hold'] }));
      const { object } = await port.delete(Namespaces, { name: team });
      expect((object as { status?: { phase?: string } }).status?.phase).toBe('Terminating');
      expect(isForbidden(await failure(port.create(Pods, podObject('c', team, { nodeName: '' }))))).toBe(
        true,
      );
      await eventually(async () => {
        expect((await port.list(Pods, { namespace: team })).items.map((p) => p.metadata.name)).toEqual(['b']);
      }, 60_000);
      expect((await port.get(Namespaces, { name: team })).metadata.deletionTimestamp).toBeDefined();
      await port.patch(Pods, { name: 'b', namespace: team }, { metadata: { finalizers: null } });
      await eventually(async () => {
        expect(isNotFound(await failure(port.get(Namespaces, { name: team })))).toBe(true);
      }, 60_000);
    },
  },

  // server-side apply
  {
    name: 'apply creates a missing object and records the field manager',
    async run({ port, name }) {
      const out = await port.apply<Widget>(Widgets, widget(name('a'), { size: 1, color: 'red' }), {
        fieldManager: 'ctrl',
      });
      expect(out.spec).toEqual({ size: 1, color: 'red' });
      expect(out.metadata.uid).toBeDefined();
      expect(out.metadata.managedFields).toEqual([
        expect.objectContaining({
          manager: 'ctrl',
          operation: 'Apply',
          fieldsV1: { 'f:spec': { 'f:size': {}, 'f:color': {} } },
        }),
      ]);
    },
  },
  {
    name: 'apply sets only the fields given and leaves fields of other writers alone',
    async run({ port, name }) {
      await port.create(Widgets, widget(name('a'), { size: 1, tags: ['x'] }), { fieldManager: 'creator' });
      const out = await port.apply<Widget>(Widgets, widget(name('a'), { color: 'blue' }), {
        fieldManager: 'ctrl',
      });
      expect(out.spec).toEqual({ size: 1, tags: ['x'], color: 'blue' });
    },
  },
  {
    name: 'apply removes fields a manager stops applying',
    async run({ port, name }) {
      const config = (spec: Widget['spec'], labels: Record<string, string>) =>
        widget(name('a'), spec, { metadata: { name: name('a'), labels } });
      await port.apply(Widgets, config({ size: 1, color: 'red' }, { a: '1', b: '2' }), {
        fieldManager: 'ctrl',
      });
      const out = await port.apply<Widget>(Widgets, config({ size: 2 }, { a: '1' }), {
        fieldManager: 'ctrl',
      });
      expect(out.spec).toEqual({ size: 2 });
      expect(out.metadata.labels).toEqual({ a: '1' });
    },
  },
  {
    name: 'apply conflicts with a field another manager set to a different value, unless forced',
    async run({ port, name }) {
      await port.create(Widgets, widget(name('a'), { size: 3 }), { fieldManager: 'kubectl' });
      const err = await failure(
        port.apply(Widgets, widget(name('a'), { size: 5 }), { fieldManager: 'ctrl' }),
      );
      expect(isConflict(err)).toBe(true);
      expect(err.message).toBe(
        `Apply failed with 1 conflict: conflict with "kubectl" using ${GROUP}/v1: .spec.size`,
      );
      expect((await port.get(Widgets, { name: name('a') })).spec?.size).toBe(3);
      const same = await port.apply<Widget>(Widgets, widget(name('a'), { size: 3 }), {
        fieldManager: 'ctrl',
      });
      expect(same.spec?.size).toBe(3);
      const forced = await port.apply<Widget>(Widgets, widget(name('a'), { size: 5 }), {
        fieldManager: 'ctrl',
        force: true,
      });
      expect(forced.spec?.size).toBe(5);
      expect(forced.metadata.managedFields?.map((m) => [m.manager, m.operation, m.fieldsV1])).toEqual([
        ['ctrl', 'Apply', { 'f:spec': { 'f:size': {} } }],
        ['kubectl', 'Update', { 'f:spec': {} }],
      ]);
    },
  },
  {
    name: 'apply lets controllers share finalizers, each owning its own',
    async run({ port, name }) {
      const config = (finalizers?: string[]) =>
        widget(name('a'), {}, { metadata: { name: name('a'), ...(finalizers ? { finalizers } : {}) } });
      await port.apply(Widgets, config(['one.io/f']), { fieldManager: 'one' });
      await port.apply(Widgets, config(['two.io/f']), { fieldManager: 'two' });
      expect((await port.get(Widgets, { name: name('a') })).metadata.finalizers).toEqual([
        'one.io/f',
        'two.io/f',
      ]);
      const out = await port.apply<Widget>(Widgets, config(), { fieldManager: 'one' });
      expect(out.metadata.finalizers).toEqual(['two.io/f']);
      await port.apply(Widgets, config(), { fieldManager: 'two' });
    },
  },
  {
    name: 'apply ignores status on the main resource and applyStatus applies it',
    async run({ port, name }) {
      const created = await port.apply<Widget>(
        Widgets,
        widget(name('a'), { size: 1 }, { status: { phase: 'Forged' } }),
        { fieldManager: 'ctrl' },
      );
      expect(created.status).toBeUndefined();
      const withStatus = await port.applyStatus<Widget>(
        Widgets,
        widget(name('a'), { size: 99 }, { status: { phase: 'Ready' } }),
        { fieldManager: 'ctrl' },
      );
      expect(withStatus.status).toEqual({ phase: 'Ready' });
      expect(withStatus.spec?.size).toBe(1);
      expect(withStatus.metadata.managedFields?.map((m) => m.subresource ?? 'main')).toEqual([
        'main',
        'status',
      ]);
      const missing = await failure(port.applyStatus(Widgets, widget(name('zz')), { fieldManager: 'x' }));
      expect(isNotFound(missing)).toBe(true);
    },
  },
  {
    name: 'apply requires a field manager, a matching kind and a name, and honours a resourceVersion',
    async run({ port, name, namespace }) {
      const noManager = await failure(port.apply(Widgets, widget(name('a')), { fieldManager: '' }));
      expect(isInvalid(noManager)).toBe(true);
      expect(noManager.code).toBe(422);
      expect(noManager.message).toBe(
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      );
      const wrongKind = { ...widget(name('a')), metadata: { name: name('a'), namespace } } as KubeObject;
      expect(isBadRequest(await failure(port.apply(Pods, wrongKind, { fieldManager: 'x' })))).toBe(true);
      expect(
        isBadRequest(
          await failure(port.apply(Widgets, { ...widget(''), metadata: {} }, { fieldManager: 'x' })),
        ),
      ).toBe(true);
      const created = await port.apply<Widget>(Widgets, widget(name('a'), { size: 1 }), {
        fieldManager: 'x',
      });
      await port.apply(Widgets, widget(name('a'), { size: 2 }), { fieldManager: 'x' });
      const stale = widget(
        name('a'),
        { size: 3 },
        {
          metadata: { name: name('a'), resourceVersion: created.metadata.resourceVersion as string },
        },
      );
      expect(isConflict(await failure(port.apply(Widgets, stale, { fieldManager: 'x' })))).toBe(true);
    },
  },
  {
    name: 'apply sees the fields update managers took',
    async run({ port, name }) {
      await port.apply(Widgets, widget(name('a'), { size: 1 }), { fieldManager: 'ctrl' });
      await port.patch(Widgets, { name: name('a') }, { spec: { size: 2 } }, { fieldManager: 'human' });
      const live = await port.get(Widgets, { name: name('a') });
      expect(live.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`)).toEqual([
        'human/Update',
      ]);
      const err = await failure(
        port.apply(Widgets, widget(name('a'), { size: 1 }), { fieldManager: 'other' }),
      );
      expect(isConflict(err)).toBe(true);
    },
  },

  // eviction
  {
    name: 'evict deletes a pod no budget covers',
    async run({ port, namespace, runningPod, eventually }) {
      await runningPod('a', { app: 'web' });
      await port.evict({ name: 'a', namespace });
      await eventually(async () => expect(await podNames(port, namespace)).toEqual([]));
    },
  },
  {
    name: 'evict answers NotFound for a missing pod',
    async run({ port, namespace }) {
      expect(isNotFound(await failure(port.evict({ name: 'ghost', namespace })))).toBe(true);
    },
  },
  {
    name: 'evict enforces an integer minAvailable over healthy pods',
    async run({ port, namespace, runningPod, budgetObserved, eventually }) {
      for (const n of ['a', 'b', 'c']) await runningPod(n, { app: 'web' });
      await createBudget(port, 'web', namespace, {
        minAvailable: 2,
        selector: { matchLabels: { app: 'web' } },
      });
      await budgetObserved('web', 3);
      await port.evict({ name: 'a', namespace });
      await budgetObserved('web', 2);
      const err = await failure(port.evict({ name: 'b', namespace }));
      expect(isTooManyRequests(err)).toBe(true);
      expect(err.code).toBe(429);
      expect(err.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
      expect(err.details?.causes?.[0]?.message).toBe(
        'The disruption budget web needs 2 healthy pods and has 2 currently',
      );
      await eventually(async () => expect(await podNames(port, namespace)).toEqual(['b', 'c']));
    },
  },
  {
    name: 'evict does not count terminating pods as healthy',
    async run({ port, namespace, runningPod, budgetObserved }) {
      for (const n of ['a', 'b', 'c']) await runningPod(n, { app: 'web' }, ['kubeport.nodewright.dev/hold']);
      await createBudget(port, 'web', namespace, {
        minAvailable: 2,
        selector: { matchLabels: { app: 'web' } },
      });
      await budgetObserved('web', 3);
      await port.evict({ name: 'a', namespace });
      const a = (await port.get(Pods, { name: 'a', namespace })) as PodLike;
      expect(a.metadata.deletionTimestamp).toBeDefined();
      expect(a.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
        status: 'True',
        reason: 'EvictionByEvictionAPI',
      });
      await budgetObserved('web', 2);
      expect(isTooManyRequests(await failure(port.evict({ name: 'b', namespace })))).toBe(true);
    },
  },
  {
    name: 'evict allows nothing under maxUnavailable when pods have no controller',
    async run({ port, namespace, runningPod, budgetObserved }) {
      for (const n of ['a', 'b']) await runningPod(n, { app: 'web' });
      await createBudget(port, 'web', namespace, {
        maxUnavailable: 1,
        selector: { matchLabels: { app: 'web' } },
      });
      await budgetObserved('web');
      expect(isTooManyRequests(await failure(port.evict({ name: 'a', namespace })))).toBe(true);
    },
  },
  {
    name: 'evict refuses with 500 when several budgets select the pod',
    async run({ port, namespace, runningPod }) {
      await runningPod('a', { app: 'web', tier: 'front' });
      await createBudget(port, 'one', namespace, {
        maxUnavailable: 5,
        selector: { matchLabels: { app: 'web' } },
      });
      await createBudget(port, 'two', namespace, {
        maxUnavailable: 5,
        selector: { matchLabels: { tier: 'front' } },
      });
      const err = await failure(port.evict({ name: 'a', namespace }));
      expect(isInternalError(err)).toBe(true);
      expect(err.message).toContain('more than one PodDisruptionBudget');
    },
  },
  {
    name: 'evict ignores budgets for pending pods',
    async run({ port, namespace }) {
      await port.create(Pods, podObject('pending', namespace, { labels: { app: 'web' }, nodeName: '' }));
      await createBudget(port, 'web', namespace, {
        maxUnavailable: 0,
        selector: { matchLabels: { app: 'web' } },
      });
      await port.evict({ name: 'pending', namespace });
      expect(await podNames(port, namespace)).toEqual([]);
    },
  },
  {
    name: 'evict applies only budgets of the pod namespace whose selector matches',
    async run({ port, namespace, newNamespace, runningPod, eventually }) {
      const team = await newNamespace('team');
      await runningPod('a', { app: 'web' });
      await createBudget(port, 'elsewhere', team, { maxUnavailable: 0, selector: {} });
      await createBudget(port, 'unrelated', namespace, {
        maxUnavailable: 0,
        selector: { matchLabels: { app: 'db' } },
      });
      await createBudget(port, 'no-selector', namespace, { maxUnavailable: 0 });
      await port.evict({ name: 'a', namespace });
      await eventually(async () => expect(await podNames(port, namespace)).toEqual([]));
      await runningPod('b', { app: 'web' });
      await createBudget(port, 'everything', namespace, { maxUnavailable: 0, selector: {} });
      expect(isTooManyRequests(await failure(port.evict({ name: 'b', namespace })))).toBe(true);
    },
  },
  {
    name: 'evict checks the caller preconditions before acting',
    async run({ port, namespace, runningPod, eventually }) {
      const pod = await runningPod('a', { app: 'web' });
      await port.patch(Pods, { name: 'a', namespace }, { metadata: { labels: { moved: 'on' } } });
      const stale = { preconditions: { resourceVersion: pod.metadata.resourceVersion as string } };
      expect(isConflict(await failure(port.evict({ name: 'a', namespace }, { deleteOptions: stale })))).toBe(
        true,
      );
      const current = await port.get(Pods, { name: 'a', namespace });
      await port.evict(
        { name: 'a', namespace },
        { deleteOptions: { preconditions: { resourceVersion: current.metadata.resourceVersion as string } } },
      );
      await eventually(async () => expect(await podNames(port, namespace)).toEqual([]));
    },
  },

  // watch
  {
    name: 'watch delivers current objects as ADDED, then syncs, then changes in order',
    async run({ port, namespace, eventually }) {
      await port.create(Gadgets, gadget('a', namespace, '1'));
      await port.create(Gadgets, gadget('b', namespace, '1'));
      const { seen, rvs, handler } = recorder<Gadget>();
      const w = port.watch(Gadgets, handler, { namespace });
      try {
        expect(w.hasSynced()).toBe(false);
        await w.synced;
        expect(w.hasSynced()).toBe(true);
        expect(seen).toEqual(['ADDED a', 'ADDED b']);
        await port.patch(Gadgets, { name: 'a', namespace }, { spec: { value: '2' } });
        await port.create(Gadgets, gadget('c', namespace));
        const deleted = await port.delete(Gadgets, { name: 'b', namespace });
        expect(deleted.deleted).toBe(true);
        await eventually(() => expect(seen.slice(2)).toEqual(['MODIFIED a', 'ADDED c', 'DELETED b']));
        const changes = rvs.slice(2).map(Number);
        expect([...changes].sort((x, y) => x - y)).toEqual(changes);
        await eventually(() =>
          expect(Number(w.resourceVersion())).toBeGreaterThanOrEqual(changes[2] as number),
        );
      } finally {
        w.stop();
      }
    },
  },
  {
    name: 'watch delivers asynchronously, never inside the write that caused the event',
    async run({ port, namespace, eventually }) {
      const order: string[] = [];
      const w = port.watch(
        Gadgets,
        (e) => {
          if (e.type !== 'ERROR') order.push(`event ${e.type}`);
        },
        { namespace },
      );
      try {
        await w.synced;
        const write = port.create(Gadgets, gadget('a', namespace));
        order.push('write returned');
        await write;
        await eventually(() => expect(order).toEqual(['write returned', 'event ADDED']));
      } finally {
        w.stop();
      }
    },
  },
  {
    name: 'watch awaits each handler before delivering the next event, even when handlers write',
    async run({ port, namespace, eventually }) {
      await port.create(Gadgets, gadget('a', namespace));
      await port.create(Gadgets, gadget('b', namespace));
      const log: string[] = [];
      const w = port.watch(
        Gadgets,
        async (e) => {
          if (e.type === 'ERROR') return;
          const name = e.object.metadata.name as string;
          log.push(`start ${e.type} ${name}`);
          if (e.type === 'ADDED' && name === 'a')
            await port.patch(Gadgets, { name: 'a', namespace }, { spec: { value: '9' } });
          await Promise.resolve();
          log.push(`end ${e.type} ${name}`);
        },
        { namespace },
      );
      try {
        await eventually(() =>
          expect(log).toEqual([
            'start ADDED a',
            'end ADDED a',
            'start ADDED b',
            'end ADDED b',
            'start MODIFIED a',
            'end MODIFIED a',
          ]),
        );
      } finally {
        w.stop();
      }
    },
  },
  {
    name: 'watch resumes from a resourceVersion with exactly the later changes',
    async run({ port, namespace, eventually }) {
      const first = recorder<Gadget>();
      const w1 = port.watch(Gadgets, first.handler, { namespace });
      await port.create(Gadgets, gadget('a', namespace, '1'));
      await eventually(() => expect(first.seen).toEqual(['ADDED a']));
      const resumeAt = w1.resourceVersion();
      w1.stop();
      await port.patch(Gadgets, { name: 'a', namespace }, { spec: { value: '2' } });
      await port.create(Gadgets, gadget('b', namespace));
      const second = recorder<Gadget>((o) => `${o.metadata.name} ${o.spec?.value ?? ''}`);
      const w2 = port.watch(Gadgets, second.handler, { namespace, resourceVersion: resumeAt });
      try {
        await w2.synced;
        expect(second.seen).toEqual(['MODIFIED a 2', 'ADDED b ']);
        await port.delete(Gadgets, { name: 'a', namespace });
        await eventually(() => expect(second.seen.at(-1)).toBe('DELETED a 2'));
      } finally {
        w2.stop();
      }
    },
  },
  {
    name: 'watch ends with a 410 when resuming from history that was compacted',
    async run({ port, namespace, expiredResourceVersion, eventually }) {
      const start = await expiredResourceVersion();
      const { seen, handler } = recorder<Gadget>();
      const w = port.watch(Gadgets, handler, { namespace, resourceVersion: start });
      await expect(w.synced).rejects.toSatisfy(isGone);
      await eventually(() => expect(seen).toEqual(['ERROR Expired']));
    },
  },
  {
    name: 'watch sees ADDED and DELETED as objects enter and leave its selector',
    async run({ port, namespace, eventually }) {
      const { seen, handler } = recorder<KubeObject>(
        (o) => `${o.metadata.name} ${o.metadata.labels?.app ?? '-'}`,
      );
      const w = port.watch(Pods, handler, {
        labelSelector: 'app=web',
        fieldSelector: `metadata.namespace=${namespace}`,
      });
      try {
        await w.synced;
        const key = { name: 'p', namespace };
        await port.create(Pods, podObject('p', namespace, { labels: { app: 'batch' }, nodeName: '' }));
        await port.patch(Pods, key, { metadata: { labels: { app: 'web' } } });
        await port.patch(Pods, key, { metadata: { labels: { extra: '1' } } });
        await port.patch(Pods, key, { metadata: { labels: { app: 'batch' } } });
        // Leaving the selector shows the last matching state.
        await eventually(() => expect(seen).toEqual(['ADDED p web', 'MODIFIED p web', 'DELETED p web']));
      } finally {
        w.stop();
      }
    },
  },
  {
    // The port hands out read-only objects: the in-memory cluster's are frozen (a write throws),
    // the client's are a copy per watch. Either way no handler can change another's view.
    name: 'what one watch is handed cannot change what another watch or a get sees',
    async run({ port, namespace, eventually }) {
      let tried = false;
      const other: Gadget[] = [];
      const w1 = port.watch(
        Gadgets,
        (e) => {
          if (e.type !== 'ADDED') return;
          try {
            (e.object.spec as { value: string }).value = 'mutated';
          } catch {
            // frozen: the write is refused, which is the point
          }
          tried = true;
        },
        { namespace },
      );
      const w2 = port.watch(
        Gadgets,
        (e) => {
          if (e.type === 'ADDED') other.push(e.object);
        },
        { namespace },
      );
      try {
        await Promise.all([w1.synced, w2.synced]);
        await port.create(Gadgets, gadget('a', namespace, '1'));
        await eventually(() => expect(tried && other.length === 1).toBe(true));
        expect(other[0]?.spec?.value).toBe('1');
        expect((await port.get(Gadgets, { name: 'a', namespace })).spec?.value).toBe('1');
      } finally {
        w1.stop();
        w2.stop();
      }
    },
  },
  {
    name: 'watch stops delivering after stop()',
    async run({ port, namespace, eventually, pause }) {
      const { seen, handler } = recorder<Gadget>();
      const w = port.watch(Gadgets, handler, { namespace });
      await w.synced;
      w.stop();
      await port.create(Gadgets, gadget('a', namespace));
      await pause(1000);
      await eventually(() => expect(seen).toEqual([]));
    },
  },
  {
    name: 'watch reports a bad selector as an ERROR event',
    async run({ port, eventually }) {
      const { seen, handler } = recorder<Widget>();
      const w = port.watch(Widgets, handler, { fieldSelector: 'spec.size=1' });
      await expect(w.synced).rejects.toSatisfy(isBadRequest);
      await eventually(() => expect(seen).toEqual(['ERROR BadRequest']));
    },
  },
  {
    name: 'watch keeps delivering after a handler throws',
    async run({ port, namespace, eventually, tolerateHandlerErrors }) {
      tolerateHandlerErrors();
      const seen: string[] = [];
      const w = port.watch(
        Gadgets,
        (e) => {
          if (e.type === 'ERROR') return;
          seen.push(e.object.metadata.name as string);
          if (e.object.metadata.name === 'bad') throw new Error('handler broke');
        },
        { namespace },
      );
      try {
        await w.synced;
        await port.create(Gadgets, gadget('bad', namespace));
        await port.create(Gadgets, gadget('good', namespace));
        await eventually(() => expect(seen).toEqual(['bad', 'good']));
      } finally {
        w.stop();
      }
    },
  },
  {
    name: 'watch resumes across forced reconnects without losing or repeating events',
    async run({ port, namespace, reconnecting, reconnects, pause, eventually }) {
      const { seen, handler } = recorder<Gadget>((o) => `${o.metadata.name} ${o.spec?.value ?? ''}`);
      const w = reconnecting().watch(Gadgets, handler, { namespace });
      try {
        await w.synced;
        for (let i = 0; i < 3; i++) {
          await port.create(Gadgets, gadget(`g${i}`, namespace, '1'));
          await pause(1300);
        }
        await port.patch(Gadgets, { name: 'g0', namespace }, { spec: { value: '2' } });
        await pause(1300);
        await port.delete(Gadgets, { name: 'g1', namespace });
        await eventually(() =>
          expect(seen).toEqual(['ADDED g0 1', 'ADDED g1 1', 'ADDED g2 1', 'MODIFIED g0 2', 'DELETED g1 1']),
        );
        await pause(1300);
        expect(seen).toHaveLength(5);
        // The real adapter really did reconnect in between (memory has no connections).
        const count = reconnects();
        if (count !== undefined) expect(count).toBeGreaterThanOrEqual(4);
      } finally {
        w.stop();
      }
    },
  },

  // garbage collection (the memory adapter's collector; kube-controller-manager's on a real cluster)
  {
    name: 'garbage collection deletes dependents in the background once their owner is gone, cascading',
    async run({ port, name, eventually }) {
      const root = await port.create(Widgets, widget(name('root')));
      const mid = await port.create(Widgets, child(name('mid'), [ownedBy(root)]));
      await port.create(Widgets, child(name('leaf'), [ownedBy(mid)]));
      await port.delete(Widgets, { name: name('root') });
      await eventually(async () => {
        expect(await exists(port, Widgets, name('mid'))).toBe(false);
        expect(await exists(port, Widgets, name('leaf'))).toBe(false);
      }, 90_000);
    },
  },
  {
    name: 'garbage collection honours the finalizers of dependents',
    async run({ port, name, eventually }) {
      const owner = await port.create(Widgets, widget(name('owner')));
      await port.create(Widgets, child(name('held'), [ownedBy(owner)], ['x.io/cleanup']));
      await port.delete(Widgets, { name: name('owner') });
      await eventually(async () => {
        expect((await port.get(Widgets, { name: name('held') })).metadata.deletionTimestamp).toBeDefined();
      }, 90_000);
      await port.patch(Widgets, { name: name('held') }, { metadata: { finalizers: null } });
      expect(await exists(port, Widgets, name('held'))).toBe(false);
    },
  },
  {
    name: 'garbage collection keeps a dependent that still has a live owner, dropping the dangling reference',
    async run({ port, name, eventually }) {
      const a = await port.create(Widgets, widget(name('a')));
      const b = await port.create(Widgets, widget(name('b')));
      await port.create(Widgets, child(name('shared'), [ownedBy(a), ownedBy(b)]));
      await port.delete(Widgets, { name: name('a') });
      await eventually(async () => {
        const shared = await port.get(Widgets, { name: name('shared') });
        expect(shared.metadata.ownerReferences?.map((r) => r.name)).toEqual([name('b')]);
      }, 90_000);
    },
  },
  {
    name: 'garbage collection deletes a dependent whose owner does not exist',
    async run({ port, name, eventually }) {
      const nobody = {
        apiVersion: Widgets.apiVersion,
        kind: 'Widget',
        name: name('nobody'),
        uid: randomUUID(),
      };
      await port.create(Widgets, child(name('orphaned'), [nobody]));
      await eventually(async () => expect(await exists(port, Widgets, name('orphaned'))).toBe(false), 90_000);
    },
  },
  {
    name: 'garbage collection orphans dependents with propagationPolicy Orphan',
    async run({ port, name, eventually }) {
      const owner = await port.create(Widgets, widget(name('owner')));
      await port.create(Widgets, child(name('dep'), [ownedBy(owner)]));
      const result = await port.delete(Widgets, { name: name('owner') }, { propagationPolicy: 'Orphan' });
      expect(result.deleted).toBe(false);
      expect(result.object.metadata.finalizers).toEqual(['orphan']);
      await eventually(async () => {
        expect(await exists(port, Widgets, name('owner'))).toBe(false);
        const dep = await port.get(Widgets, { name: name('dep') });
        expect(dep.metadata.ownerReferences).toBeUndefined();
        expect(dep.metadata.deletionTimestamp).toBeUndefined();
      }, 90_000);
    },
  },
  {
    name: 'garbage collection keeps a foreground-deleted owner until blocking dependents are gone',
    async run({ port, name, eventually }) {
      const owner = await port.create(Widgets, widget(name('owner')));
      await port.create(
        Widgets,
        child(name('blocker'), [ownedBy(owner, { blockOwnerDeletion: true })], ['x.io/hold']),
      );
      await port.create(Widgets, child(name('plain'), [ownedBy(owner)]));
      const result = await port.delete(Widgets, { name: name('owner') }, { propagationPolicy: 'Foreground' });
      expect(result.deleted).toBe(false);
      await eventually(async () => {
        expect(await exists(port, Widgets, name('plain'))).toBe(false);
        expect((await port.get(Widgets, { name: name('blocker') })).metadata.deletionTimestamp).toBeDefined();
      }, 90_000);
      expect((await port.get(Widgets, { name: name('owner') })).metadata.finalizers).toEqual([
        'foregroundDeletion',
      ]);
      await port.patch(Widgets, { name: name('blocker') }, { metadata: { finalizers: null } });
      await eventually(async () => expect(await exists(port, Widgets, name('owner'))).toBe(false), 90_000);
    },
  },
  {
    name: 'garbage collection collects namespaced dependents of a cluster-scoped owner',
    async run({ port, name, namespace, eventually }) {
      const owner = await port.create(Widgets, widget(name('owner')));
      await port.create(ConfigMaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'dep', namespace, ownerReferences: [ownedBy(owner)] },
      });
      await port.delete(Widgets, { name: name('owner') });
      await eventually(
        async () =>
          expect(
            (await port.list(ConfigMaps, { namespace })).items.map((c) => c.metadata.name),
          ).not.toContain('dep'),
        90_000,
      );
    },
  },

  // PodDisruptionBudget status (memory: its PodDisruptionBudgetStatusController plug-in; real: kube-controller-manager)
  {
    name: 'PDB status follows pods as they come, become ready and are evicted',
    async run({ port, namespace, runningPod, eventually }) {
      await createBudget(port, 'web', namespace, {
        minAvailable: 1,
        selector: { matchLabels: { app: 'web' } },
      });
      const status = async () =>
        (
          (await port.get(PodDisruptionBudgets, { name: 'web', namespace })) as KubeObject & {
            status?: Record<string, unknown>;
          }
        ).status;
      await eventually(async () =>
        expect(await status()).toMatchObject({
          expectedPods: 0,
          currentHealthy: 0,
          disruptionsAllowed: 0,
          observedGeneration: 1,
        }),
      );
      for (const n of ['a', 'b']) await runningPod(n, { app: 'web' });
      await eventually(async () =>
        expect(await status()).toMatchObject({
          expectedPods: 2,
          currentHealthy: 2,
          desiredHealthy: 1,
          disruptionsAllowed: 1,
          conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' }],
        }),
      );
      await port.evict({ name: 'a', namespace });
      await eventually(async () => {
        const now = await status();
        expect(now).toMatchObject({
          expectedPods: 1,
          currentHealthy: 1,
          disruptionsAllowed: 0,
          conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }],
        });
        expect(now?.disruptedPods).toBeUndefined();
      });
    },
  },

  // a kind nodewright ships
  {
    name: 'a NodeClaim round-trips through its CRD, status only through the status subresource',
    async run({ port, name }) {
      const key = { name: name('nc') };
      const created = await port.create(NodeClaims, {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodeClaim',
        metadata: { name: key.name },
        spec: {
          nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' },
          requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
        },
        status: { providerID: 'forged' },
      } as NodeClaim);
      expect(created.status).toBeUndefined();
      expect(created.metadata.generation).toBe(1);
      const launched = await port.patchStatus<NodeClaim>(NodeClaims, key, {
        status: { providerID: 'kwok://nc', nodeName: 'n1' },
        spec: { nodeClassRef: { name: 'other' } },
      });
      expect(launched.status).toMatchObject({ providerID: 'kwok://nc', nodeName: 'n1' });
      expect(launched.spec.nodeClassRef.name).toBe('default');
      expect(launched.metadata.generation).toBe(1);
      const listed = await port.list<NodeClaim>(NodeClaims, { fieldSelector: `metadata.name=${key.name}` });
      expect(listed.items.map((n) => [n.kind, n.status?.providerID])).toEqual([['NodeClaim', 'kwok://nc']]);
      await port.delete(NodeClaims, key);
    },
  },

  // events
  {
    name: 'createEvent stores a core/v1 Event and aggregates identical ones into a count',
    async run({ port, namespace }) {
      const cm = await port.create(ConfigMaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm', namespace },
      });
      const input: EventInput = {
        involvedObject: referenceTo(cm),
        reason: 'DisruptionBlocked',
        message: 'pdb web prevents eviction',
        type: 'Warning',
        source: { component: 'nodewright' },
      };
      await port.createEvent(input);
      await port.createEvent(input);
      await port.createEvent({ ...input, message: 'something else' });
      const events = (
        await port.list<CoreEvent>(Events, { namespace, fieldSelector: `involvedObject.name=cm` })
      ).items;
      expect(events).toHaveLength(2);
      const blocked = events.find((e) => e.message === 'pdb web prevents eviction');
      expect(blocked).toMatchObject({
        metadata: { namespace },
        involvedObject: { kind: 'ConfigMap', name: 'cm', uid: cm.metadata.uid },
        type: 'Warning',
        reason: 'DisruptionBlocked',
        count: 2,
        source: { component: 'nodewright' },
      });
      expect(Date.parse(blocked?.lastTimestamp ?? '')).toBeGreaterThanOrEqual(
        Date.parse(blocked?.firstTimestamp ?? ''),
      );
      expect(
        (await port.list(Events, { namespace, fieldSelector: 'reason=DisruptionBlocked,type=Warning' }))
          .items,
      ).toHaveLength(2);
    },
  },
  {
    name: 'createEvent starts a new Event when the aggregated one was deleted',
    async run({ port, namespace }) {
      const input: EventInput = {
        involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', namespace },
        reason: 'R',
        message: 'm',
        type: 'Normal',
      };
      await port.createEvent(input);
      const [first] = (await port.list(Events, { namespace })).items;
      await port.delete(Events, { name: first?.metadata.name as string, namespace });
      await port.createEvent(input);
      const events = (await port.list<CoreEvent>(Events, { namespace })).items;
      expect(events.map((e) => e.count)).toEqual([1]);
    },
  },
];

function ownedBy(owner: KubeObject, extra: Partial<OwnerReference> = {}): OwnerReference {
  return {
    apiVersion: owner.apiVersion as string,
    kind: owner.kind as string,
    name: owner.metadata.name as string,
    uid: owner.metadata.uid as string,
    ...extra,
  };
}

function child(name: string, owners: OwnerReference[], finalizers?: string[]): Widget {
  return {
    ...widget(name),
    metadata: { name, ownerReferences: owners, ...(finalizers ? { finalizers } : {}) },
  };
}

async function exists(port: ClusterPort, type: ResourceType, name: string): Promise<boolean> {
  try {
    await port.get(type, { name });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

async function podNames(port: ClusterPort, namespace: string): Promise<string[]> {
  return (await port.list(Pods, { namespace })).items.map((p) => p.metadata.name as string);
}

async function createBudget(
  port: ClusterPort,
  name: string,
  namespace: string,
  spec: Record<string, unknown>,
) {
  await port.create(PodDisruptionBudgets, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace },
    spec,
  } as KubeObject);
}

/** The pods the selector checks filter: two namespaces, bound to fake nodes or pending. */
async function seedPods(ctx: CheckContext): Promise<string> {
  const { port, namespace, labels } = ctx;
  const team = await ctx.newNamespace('team');
  const pod = (name: string, ns: string, podLabels: Record<string, string>, nodeName: string) =>
    port.create(Pods, podObject(name, ns, { labels: { ...labels, ...podLabels }, nodeName }));
  await pod('web-1', namespace, { app: 'web', tier: 'front' }, 'node-1');
  await pod('web-2', namespace, { app: 'web', tier: 'back' }, 'node-2');
  await pod('pending', namespace, { app: 'batch' }, '');
  await pod('other', team, { app: 'web' }, 'node-1');
  return team;
}

// ---------------------------------------------------------------------------------------------
// Harnesses: how each adapter provides a CheckContext.

interface Harness {
  readonly adapter: AdapterName;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  context(index: number): Promise<CheckContext & { dispose(): Promise<void> }>;
}

const RUN = randomUUID().slice(0, 6);
const CHECK_LABEL = 'kubeport.nodewright.dev/check';

/** `CheckContext.known` for one adapter: what that adapter shows today. */
function knownFor(adapter: AdapterName): CheckContext['known'] {
  return <T>(_difference: keyof typeof KNOWN_DIFFERENCES, values: Record<AdapterName, T>): T =>
    values[adapter];
}

function memoryHarness(): Harness {
  return {
    adapter: 'memory',
    async setup() {},
    async teardown() {},
    async context(index) {
      const clock = new FakeClock(Date.parse('2026-03-01T12:00:00Z'));
      const history = 50;
      const cluster = new MemoryCluster({
        clock,
        kinds: [Widgets, Gadgets, NodeClaims],
        fieldManager: 'conformance',
        watchHistory: history,
      });
      // Keeps PDB status as kube-controller-manager's disruption controller does.
      const stopDisruption = cluster.use(new PodDisruptionBudgetStatusController());
      const id = `c${index}`;
      let tolerate = false;
      const newNamespace = async (base: string) => {
        const name = `${base}-${id}`;
        await cluster.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
        return name;
      };
      const namespace = await newNamespace('kp');
      const settle = async () => {
        try {
          await cluster.settled();
        } catch (err) {
          if (!tolerate) throw err;
        }
      };
      return {
        adapter: 'memory',
        port: cluster,
        namespace,
        labels: { [CHECK_LABEL]: id },
        name: (base) => `${base}-${id}`,
        newNamespace,
        async eventually(check) {
          await settle();
          await check();
        },
        async pause() {},
        async runningPod(name, labels, finalizers) {
          const created = await cluster.create(
            Pods,
            podObject(name, namespace, { labels, ...(finalizers ? { finalizers } : {}) }),
          );
          return (await cluster.updateStatus(Pods, {
            ...created,
            status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
          } as KubeObject)) as PodLike;
        },
        async budgetObserved() {},
        async expiredResourceVersion() {
          const start = cluster.resourceVersion;
          for (let i = 0; i <= history; i++) {
            await cluster.create(ConfigMaps, {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: `filler-${i}`, namespace },
            });
          }
          return start;
        },
        reconnecting: () => cluster,
        reconnects: () => undefined,
        tolerateHandlerErrors() {
          tolerate = true;
        },
        known: knownFor('memory'),
        async dispose() {
          await settle();
          stopDisruption();
        },
      };
    },
  };
}

/** Warnings and errors from the adapter, visible in the test output; debug/info dropped. */
const testLogger: KubeLogger = {
  debug() {},
  info() {},
  warn: (bindings, message) => console.warn(`[kube-port] ${message}`, bindings),
  error: (bindings, message) => console.error(`[kube-port] ${message}`, bindings),
};

async function poll(check: () => unknown, timeoutMs = 30_000, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

function clientNodeHarness(): Harness {
  let port: ClientNodeCluster;
  let reconnecting: ClientNodeCluster;
  const nodeName = `kubeport-${RUN}`;
  let reconnectCount = 0;
  // Counts the connections the reconnecting port resumed; its retry warnings are expected noise.
  const countingLogger: KubeLogger = {
    ...testLogger,
    debug: (_bindings, message) => {
      if (message === 'watch connection ended; resuming') reconnectCount++;
    },
    warn() {},
  };

  const make = async (watch?: ConstructorParameters<typeof ClientNodeCluster>[0]['watch']) =>
    new ClientNodeCluster({
      kubeConfig: await kubeConfigFromFile(inject('nodewrightCluster').kubeconfigPath),
      fieldManager: 'conformance',
      logger: watch === undefined ? testLogger : countingLogger,
      clock: new SystemClock(),
      timers: new SystemTimers(),
      ...(watch === undefined ? {} : { watch }),
    });

  return {
    adapter: 'client-node',
    async setup() {
      port = await make();
      reconnecting = await make({ timeoutSeconds: 1 });
      // The NodeClaim CRD may be shared with other suites in this run: applied, never deleted.
      for (const definition of [WIDGET_CRD, GADGET_CRD, generateCrd(nodeClaimKind)] as KubeObject[]) {
        await port.apply(CustomResourceDefinitions, definition, { fieldManager: 'conformance', force: true });
      }
      for (const type of [Widgets, Gadgets, NodeClaims] as ResourceType[]) {
        // A CRD is served a moment after it reports Established.
        await poll(() => port.list(type));
      }
      await port.apply(
        Nodes,
        {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: nodeName, annotations: { [KWOK_NODE_ANNOTATION]: KWOK_NODE_ANNOTATION_VALUE } },
          // Only this suite's pods, bound by name, run here; nothing else gets scheduled onto it.
          spec: {
            taints: [{ key: 'kubeport.nodewright.dev/dedicated', value: 'true', effect: 'NoSchedule' }],
          },
        },
        { fieldManager: 'conformance' },
      );
      await poll(async () => {
        const node = (await port.get(Nodes, { name: nodeName })) as KubeObject & {
          status?: { conditions?: { type: string; status: string }[] };
        };
        expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
      }, 60_000);
    },
    async teardown() {
      if (port === undefined) return;
      for (const w of (await port.list(Widgets)).items) {
        const key = { name: w.metadata.name as string };
        if ((w.metadata.finalizers ?? []).length > 0)
          await port.patch(Widgets, key, { metadata: { finalizers: null } });
        await port.delete(Widgets, key).catch(() => {});
      }
      for (const definition of [WIDGET_CRD, GADGET_CRD]) {
        await port.delete(CustomResourceDefinitions, { name: definition.metadata.name }).catch(() => {});
      }
      await port.delete(Nodes, { name: nodeName }).catch(() => {});
      port.close();
      reconnecting.close();
    },
    async context(index) {
      const id = `c${index}-${RUN}`;
      const namespaces: string[] = [];
      let waitedForAccount = false;
      const newNamespace = async (base: string) => {
        const name = `${base}-${id}`;
        await port.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
        namespaces.push(name);
        return name;
      };
      const namespace = await newNamespace('kp');
      const ready = async () => {
        // The ServiceAccount admission plugin refuses pods until the namespace's default account exists.
        if (waitedForAccount) return;
        await poll(() =>
          port.get(resourceType({ apiVersion: 'v1', kind: 'ServiceAccount', namespaced: true }), {
            name: 'default',
            namespace,
          }),
        );
        waitedForAccount = true;
      };
      await ready();
      const budgetKey = (name: string): ObjectKey => ({ name, namespace });
      return {
        adapter: 'client-node',
        port,
        namespace,
        labels: { [CHECK_LABEL]: id },
        name: (base) => `${base}-${id}`,
        newNamespace,
        eventually: (check, timeoutMs) => poll(check, timeoutMs),
        pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        async runningPod(name, labels, finalizers) {
          await port.create(
            Pods,
            podObject(name, namespace, { labels, nodeName, ...(finalizers ? { finalizers } : {}) }),
          );
          let pod: PodLike | undefined;
          await poll(async () => {
            pod = (await port.get(Pods, { name, namespace })) as PodLike;
            expect(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
          }, 60_000);
          return pod as PodLike;
        },
        async budgetObserved(name, healthy) {
          await poll(async () => {
            const pdb = (await port.get(PodDisruptionBudgets, budgetKey(name))) as KubeObject & {
              status?: { observedGeneration?: number; currentHealthy?: number };
            };
            expect(pdb.status?.observedGeneration).toBe(pdb.metadata.generation);
            if (healthy !== undefined) expect(pdb.status?.currentHealthy).toBe(healthy);
          }, 60_000);
        },
        async expiredResourceVersion() {
          return '1';
        },
        reconnecting: () => reconnecting,
        reconnects: () => reconnectCount,
        tolerateHandlerErrors() {},
        known: knownFor('client-node'),
        async dispose() {
          for (const ns of namespaces) {
            for (const pod of (await port.list(Pods, { namespace: ns })).items) {
              const key = { name: pod.metadata.name as string, namespace: ns };
              if ((pod.metadata.finalizers ?? []).length > 0)
                await port.patch(Pods, key, { metadata: { finalizers: null } }).catch(() => {});
              await port.delete(Pods, key, { gracePeriodSeconds: 0 }).catch(() => {});
            }
            await port.delete(Namespaces, { name: ns }).catch(() => {});
          }
        },
      };
    },
  };
}

for (const harness of [memoryHarness(), clientNodeHarness()]) {
  describe(`ClusterPort behaviour: ${harness.adapter}`, () => {
    beforeAll(() => harness.setup());
    afterAll(() => harness.teardown());
    CHECKS.forEach((check, index) => {
      it(check.name, async () => {
        const ctx = await harness.context(index);
        try {
          await check.run(ctx);
        } finally {
          await ctx.dispose();
        }
      });
    });
  });
}
