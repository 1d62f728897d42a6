import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { isBadRequest, isConflict, isNotFound, isTooManyRequests } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceType } from '../resource-type.js';
import { resourceType } from '../resource-type.js';
import { Events, Nodes, Pods as TypedPods } from '../resource-types.js';
import { ClientNodeCluster } from './client-node-cluster.js';
import { type KubeLogger, silentLogger } from './logger.js';
import type { QueryParams } from './resource-path.js';
import type { KubeRequest, KubeResponse, KubeTransport, StreamEvent } from './transport.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Pods: ResourceType = TypedPods;

const Widgets = resourceType({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  namespaced: false,
  statusSubresource: true,
});

type Responder = (request: KubeRequest) => KubeResponse;

/** Records requests and answers them from a function; watches record their query and stay open. */
class FakeTransport implements KubeTransport {
  readonly requests: KubeRequest[] = [];
  readonly watches: { path: string; query: QueryParams; onEvent: (event: StreamEvent) => void }[] = [];
  respond: Responder = () => ({ status: 200, body: {} });

  async request(request: KubeRequest): Promise<KubeResponse> {
    this.requests.push(request);
    return this.respond(request);
  }

  watch(path: string, query: QueryParams, onEvent: (event: StreamEvent) => void, signal: AbortSignal) {
    this.watches.push({ path, query, onEvent });
    return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

const status = (code: number, reason: string, message: string, details?: object) => ({
  status: code,
  body: {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    code,
    reason,
    message,
    ...(details ? { details } : {}),
  },
});

function setup(respond?: Responder) {
  const transport = new FakeTransport();
  if (respond) transport.respond = respond;
  const clock = new FakeClock(Date.parse('2026-03-01T12:00:00Z'));
  const cluster = new ClientNodeCluster({
    kubeConfig: new KubeConfig(),
    fieldManager: 'nodewright',
    logger: silentLogger,
    clock,
    timers: new ManualTimers(clock),
    transport,
  });
  return { transport, cluster, clock };
}

const echo: Responder = (request) => ({ status: 200, body: request.body ?? {} });

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('ClientNodeCluster requests', () => {
  it('gets and lists by URLs computed from the ResourceType', async () => {
    const { transport, cluster } = setup((request) =>
      request.path.endsWith('/w')
        ? { status: 200, body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } }
        : { status: 200, body: { metadata: { resourceVersion: '9' }, items: [] } },
    );
    await cluster.get(Widgets, { name: 'w' });
    await cluster.get(Pods, { name: 'p' });
    await cluster.list(Pods, {
      namespace: 'team',
      labelSelector: { matchLabels: { app: 'web' } },
      fieldSelector: 'spec.nodeName=n',
    });
    expect(transport.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /apis/example.com/v1/widgets/w',
      'GET /api/v1/namespaces/default/pods/p',
      'GET /api/v1/namespaces/team/pods',
    ]);
    expect(transport.requests[2]?.query).toEqual({
      labelSelector: 'app=web',
      fieldSelector: 'spec.nodeName=n',
      limit: 500,
      continue: undefined,
    });
  });

  it('follows continue tokens, sorts by namespace and name, and fills apiVersion and kind', async () => {
    const pages: Record<string, object> = {
      '': {
        metadata: { resourceVersion: '10', continue: 't1' },
        items: [{ metadata: { name: 'b', namespace: 'y' } }],
      },
      t1: {
        metadata: { resourceVersion: '11' },
        items: [{ metadata: { name: 'a', namespace: 'y' } }, { metadata: { name: 'z', namespace: 'x' } }],
      },
    };
    const { cluster } = setup((request) => ({
      status: 200,
      body: pages[String(request.query?.continue ?? '')],
    }));
    const list = await cluster.list(Pods);
    expect(list.resourceVersion).toBe('10');
    expect(list.items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual([
      'x/z',
      'y/a',
      'y/b',
    ]);
    expect(list.items.every((p) => p.apiVersion === 'v1' && p.kind === 'Pod')).toBe(true);
  });

  it('restarts a list whose continue token expired', async () => {
    let calls = 0;
    const { cluster } = setup((request) => {
      calls++;
      if (request.query?.continue === 'old' && calls === 2)
        return status(410, 'Expired', 'continue token expired');
      if (request.query?.continue === 'old')
        return {
          status: 200,
          body: { metadata: { resourceVersion: '21' }, items: [{ metadata: { name: 'b' } }] },
        };
      return {
        status: 200,
        body: {
          metadata: { resourceVersion: calls === 1 ? '10' : '20', continue: 'old' },
          items: [{ metadata: { name: 'a' } }],
        },
      };
    });
    const list = await cluster.list(Nodes);
    expect(calls).toBe(4);
    expect(list.resourceVersion).toBe('20');
    expect(list.items.map((n) => n.metadata.name)).toEqual(['a', 'b']);
  });

  it('creates in the object namespace (default when unset) with the field manager', async () => {
    const { transport, cluster } = setup(echo);
    await cluster.create(Pods, { metadata: { name: 'p' } });
    await cluster.create(
      Widgets,
      { metadata: { name: 'w', namespace: 'ignored' } },
      { fieldManager: 'other' },
    );
    expect(transport.requests.map((r) => [r.method, r.path, r.query?.fieldManager])).toEqual([
      ['POST', '/api/v1/namespaces/default/pods', 'nodewright'],
      ['POST', '/apis/example.com/v1/widgets', 'other'],
    ]);
  });

  it('updates the object or its status with PUT', async () => {
    const { transport, cluster } = setup(echo);
    const w = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', resourceVersion: '3' } };
    await cluster.update(Widgets, w);
    await cluster.updateStatus(Widgets, w);
    expect(transport.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /apis/example.com/v1/widgets/w',
      'PUT /apis/example.com/v1/widgets/w/status',
    ]);
    expect(isBadRequest(await cluster.update(Widgets, { metadata: {} }).catch((e) => e))).toBe(true);
  });

  it('sends merge patches as application/merge-patch+json, with the precondition in the patch', async () => {
    const { transport, cluster } = setup(echo);
    await cluster.patch(
      Widgets,
      { name: 'w' },
      { metadata: { labels: { a: null } } },
      { resourceVersion: '7' },
    );
    await cluster.patchStatus(Widgets, { name: 'w' }, { status: { ready: true } }, { fieldManager: 'ctrl' });
    const [patch, statusPatch] = transport.requests;
    expect(patch).toMatchObject({
      method: 'PATCH',
      path: '/apis/example.com/v1/widgets/w',
      contentType: 'application/merge-patch+json',
      query: { fieldManager: 'nodewright' },
      body: { metadata: { labels: { a: null }, resourceVersion: '7' } },
    });
    expect(statusPatch).toMatchObject({
      path: '/apis/example.com/v1/widgets/w/status',
      contentType: 'application/merge-patch+json',
      query: { fieldManager: 'ctrl' },
      body: { status: { ready: true } },
    });
  });

  it('sends server-side apply as application/apply-patch+yaml with fieldManager and force', async () => {
    const { transport, cluster } = setup(echo);
    const config = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 1 },
    };
    await cluster.apply(Widgets, config, { fieldManager: 'ctrl' });
    await cluster.applyStatus(Widgets, config, { fieldManager: 'ctrl', force: true });
    expect(transport.requests.map((r) => [r.path, r.contentType, r.query])).toEqual([
      ['/apis/example.com/v1/widgets/w', 'application/apply-patch+yaml', { fieldManager: 'ctrl' }],
      [
        '/apis/example.com/v1/widgets/w/status',
        'application/apply-patch+yaml',
        { fieldManager: 'ctrl', force: true },
      ],
    ]);
    expect(transport.requests[0]?.body).toEqual(config);
    const nameless = await cluster.apply(Widgets, { metadata: {} }, { fieldManager: 'x' }).catch((e) => e);
    expect(isBadRequest(nameless)).toBe(true);
    expect(transport.requests).toHaveLength(2);
  });

  it('deletes with DeleteOptions and reads whether the object went', async () => {
    const { transport, cluster } = setup((request) =>
      request.path.endsWith('/held')
        ? {
            status: 200,
            body: {
              metadata: { name: 'held', finalizers: ['f'], deletionTimestamp: '2026-03-01T12:00:00Z' },
            },
          }
        : { status: 200, body: { kind: 'Status', status: 'Success', details: { name: 'gone', uid: 'u' } } },
    );
    const held = await cluster.delete(
      Widgets,
      { name: 'held' },
      { propagationPolicy: 'Foreground', preconditions: { uid: 'u1' } },
    );
    expect(held.deleted).toBe(false);
    expect(held.object).toMatchObject({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { finalizers: ['f'] },
    });
    const gone = await cluster.delete(Pods, { name: 'gone', namespace: 'team' }, { gracePeriodSeconds: 0 });
    expect(gone).toEqual({
      deleted: true,
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'gone', namespace: 'team', uid: 'u' } },
    });
    expect(transport.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      [
        'DELETE',
        '/apis/example.com/v1/widgets/held',
        {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          preconditions: { uid: 'u1' },
          propagationPolicy: 'Foreground',
        },
      ],
      [
        'DELETE',
        '/api/v1/namespaces/team/pods/gone',
        { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 },
      ],
    ]);
  });

  it('evicts through the policy/v1 Eviction subresource', async () => {
    const { transport, cluster } = setup(() => ({ status: 201, body: {} }));
    await cluster.evict(
      { name: 'p', namespace: 'team' },
      { deleteOptions: { preconditions: { resourceVersion: '4' } } },
    );
    expect(transport.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/namespaces/team/pods/p/eviction',
      body: {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: 'p', namespace: 'team' },
        deleteOptions: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { resourceVersion: '4' } },
      },
    });
  });

  it('throws the typed error of a failed answer', async () => {
    const { cluster } = setup(() =>
      status(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget web needs 2 healthy pods and has 2 currently',
          },
        ],
      }),
    );
    const err = await cluster.evict({ name: 'p' }).catch((e) => e);
    expect(isTooManyRequests(err)).toBe(true);
    expect(err.details.causes[0].message).toBe(
      'The disruption budget web needs 2 healthy pods and has 2 currently',
    );
    const { cluster: other } = setup(() => status(409, 'Conflict', 'the object has been modified'));
    expect(isConflict(await other.patch(Widgets, { name: 'w' }, {}).catch((e) => e))).toBe(true);
  });
});

describe('ClientNodeCluster events', () => {
  it('creates an Event once, then bumps its count by merge patch', async () => {
    const { transport, cluster, clock } = setup(echo);
    const input = {
      involvedObject: { kind: 'Node', name: 'n1', uid: 'u' },
      reason: 'DisruptionBlocked',
      message: 'pdb web prevents eviction',
      type: 'Warning' as const,
      source: { component: 'nodewright-disruption' },
    };
    await cluster.createEvent(input);
    clock.step(30_000);
    await cluster.createEvent(input);
    const [create, bump] = transport.requests;
    expect(create).toMatchObject({
      method: 'POST',
      path: '/api/v1/namespaces/default/events',
      query: { fieldManager: 'nodewright-disruption' },
      body: {
        involvedObject: { name: 'n1' },
        count: 1,
        firstTimestamp: '2026-03-01T12:00:00Z',
        reportingComponent: 'nodewright-disruption',
      },
    });
    const name = (create?.body as KubeObject | undefined)?.metadata.name;
    expect(bump).toMatchObject({
      method: 'PATCH',
      path: `/api/v1/namespaces/default/events/${name}`,
      contentType: 'application/merge-patch+json',
      body: { count: 2, lastTimestamp: '2026-03-01T12:00:30Z' },
    });
  });

  it('starts a new Event when the aggregated one is gone', async () => {
    const { transport, cluster } = setup((request) =>
      request.method === 'PATCH' ? status(404, 'NotFound', 'events "x" not found') : echo(request),
    );
    const input = {
      involvedObject: { kind: 'Node', name: 'n1' },
      reason: 'R',
      message: 'm',
      type: 'Normal' as const,
    };
    await cluster.createEvent(input);
    await cluster.createEvent(input);
    expect(transport.requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'POST']);
    expect((transport.requests[2]?.body as { count?: number } | undefined)?.count).toBe(1);
    expect(isNotFound(await cluster.patch(Events, { name: 'x' }, {}).catch((e) => e))).toBe(true);
  });
});

describe('ClientNodeCluster watch', () => {
  it('lists, then watches with bookmarks, the server timeout and the same selectors', async () => {
    const { transport, cluster } = setup(() => ({
      status: 200,
      body: { metadata: { resourceVersion: '5' }, items: [{ metadata: { name: 'a', namespace: 'team' } }] },
    }));
    const seen: string[] = [];
    const w = cluster.watch(
      Pods,
      (e) => {
        if (e.type !== 'ERROR') seen.push(`${e.type} ${e.object.kind} ${e.object.metadata.name}`);
      },
      {
        namespace: 'team',
        labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] },
      },
    );
    await w.synced;
    await flush();
    expect(transport.watches).toHaveLength(1);
    expect(transport.watches[0]?.path).toBe('/api/v1/namespaces/team/pods');
    expect(transport.watches[0]?.query).toEqual({
      labelSelector: 'app in (a,b)',
      resourceVersion: '5',
      allowWatchBookmarks: true,
      timeoutSeconds: 25,
    });
    transport.watches[0]?.onEvent({
      type: 'ADDED',
      object: { metadata: { name: 'b', namespace: 'team', resourceVersion: '6' } },
    });
    await flush();
    expect(seen).toEqual(['ADDED Pod a', 'ADDED Pod b']);
    expect(w.resourceVersion()).toBe('6');
    cluster.close();
    transport.watches[0]?.onEvent({
      type: 'ADDED',
      object: { metadata: { name: 'c', resourceVersion: '7' } },
    });
    await flush();
    expect(seen).toHaveLength(2);
  });

  it('delivers listed and streamed objects without managedFields when asked, and with them otherwise', async () => {
    const managedFields = [
      { manager: 'kubelet', operation: 'Update' as const, fieldsV1: { 'f:status': {} } },
    ];
    const { transport, cluster } = setup(() => ({
      status: 200,
      body: {
        metadata: { resourceVersion: '5' },
        items: [{ metadata: { name: 'a', namespace: 'team', managedFields }, spec: { nodeName: 'n' } }],
      },
    }));
    const stripped: KubeObject[] = [];
    const full: KubeObject[] = [];
    const keep = (into: KubeObject[]) => (e: { type: string; object?: KubeObject }) => {
      if (e.object !== undefined) into.push(e.object);
    };
    const a = cluster.watch(Pods, keep(stripped), { withoutManagedFields: true });
    const b = cluster.watch(Pods, keep(full));
    await Promise.all([a.synced, b.synced]);
    await flush();
    for (const w of transport.watches) {
      w.onEvent({
        type: 'MODIFIED',
        object: { metadata: { name: 'a', namespace: 'team', resourceVersion: '6', managedFields } },
      });
    }
    await flush();
    expect(stripped.map((o) => [o.kind, o.metadata.name, o.metadata.managedFields])).toEqual([
      ['Pod', 'a', undefined],
      ['Pod', 'a', undefined],
    ]);
    expect(stripped[0]).toMatchObject({ spec: { nodeName: 'n' } });
    expect(full.map((o) => o.metadata.managedFields)).toEqual([managedFields, managedFields]);
    cluster.close();
  });

  it('reports a malformed structured selector as an ERROR event', async () => {
    const { cluster } = setup();
    const seen: string[] = [];
    const w = cluster.watch(
      Pods,
      (e) => {
        seen.push(e.type === 'ERROR' ? `ERROR ${e.error.reason}` : e.type);
      },
      { labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } },
    );
    await expect(w.synced).rejects.toSatisfy(isBadRequest);
    await flush();
    expect(seen).toEqual(['ERROR BadRequest']);
  });
});

describe('KubeLogger', () => {
  it('accepts a pino logger as is', () => {
    const lines: string[] = [];
    const logger: KubeLogger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    logger.info({ watch: 'x' }, 'dropped');
    logger.warn({ watch: 'v1/Pod' }, 'watch failed; retrying');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 40,
      watch: 'v1/Pod',
      msg: 'watch failed; retrying',
    });
  });
});
