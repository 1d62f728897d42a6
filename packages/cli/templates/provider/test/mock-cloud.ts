import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockInstance, MockInstanceSource, OfferingRef } from '@nodewright/conformance';
import type { CatalogInstanceType } from '@nodewright/core/apis';
import { computeAllocatable } from '@nodewright/core/cloudprovider';
import { formatResourceList, parseResourceList } from '@nodewright/core/scheduling';
import { type LaunchRequest, providerIDOf, type WireError, type WireInstance } from '../src/cloud/wire.js';
import { mockInstanceTypes } from './mock-catalog.js';

/**
 * The stand-in cloud: an in-memory instance table behind an HTTP server on loopback speaking
 * the wire protocol of src/cloud/wire.ts, with the faults the conformance suite flips
 * (capacity, throttling, server errors). Replace it with a mock of your cloud's real API.
 */
export class MockCloud implements MockInstanceSource {
  readonly #instances = new Map<string, WireInstance>();
  readonly #types: readonly CatalogInstanceType[];
  readonly #noCapacity = new Set<string>();
  readonly #listeners = new Set<(instance: MockInstance) => void>();
  #server: Server | undefined;
  #throttle = 0;
  #failures = 0;
  #calls = 0;
  url = '';

  constructor(types: readonly CatalogInstanceType[] = mockInstanceTypes()) {
    this.#types = types;
  }

  /** Listens on 127.0.0.1 on a free port; `url` is then its base URL. */
  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.#serve(req, res).catch((error: unknown) => send(res, 500, wireError('InternalError', error)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** Launches of this offering fail with InsufficientCapacity from now on. */
  noCapacity(offering: OfferingRef): void {
    this.#noCapacity.add(offeringKey(offering));
  }

  /** The next `count` requests answer 429 Throttled. */
  throttleNext(count: number): void {
    this.#throttle += count;
  }

  /** The next `count` requests answer 500 InternalError. */
  failNext(count: number): void {
    this.#failures += count;
  }

  /** Requests answered, faulted ones included. */
  calls(): number {
    return this.#calls;
  }

  /** Starts an instance tagged for `cluster` with no NodeClaim behind it; returns its providerID. */
  launchOrphan(cluster: string): string {
    const type = this.#types[0]!;
    const offering = type.offerings[0]!;
    const instance = this.#launch({
      clientToken: `orphan-${randomBytes(4).toString('hex')}`,
      cluster,
      instanceType: type.name,
      zone: offering.zone,
      capacityType: offering.capacityType,
      image: 'node-image-1',
      nodeClassHash: '',
      tags: {},
    });
    return providerIDOf(instance);
  }

  watch(listener: (instance: MockInstance) => void): () => void {
    for (const instance of this.#instances.values()) listener(this.#asMockInstance(instance));
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.#calls++;
    if (this.#throttle > 0) {
      this.#throttle--;
      return send(res, 429, { code: 'Throttled', message: 'request rate exceeded' });
    }
    if (this.#failures > 0) {
      this.#failures--;
      return send(res, 500, { code: 'InternalError', message: 'injected server error' });
    }
    const url = new URL(req.url ?? '/', 'http://mock');
    const id = /^\/v1\/instances\/([^/]+)$/.exec(url.pathname)?.[1];
    if (req.method === 'GET' && url.pathname === '/v1/instance-types') {
      return send(res, 200, { instanceTypes: this.#types });
    }
    if (req.method === 'GET' && url.pathname === '/v1/instances') {
      const cluster = url.searchParams.get('cluster');
      const instances = [...this.#instances.values()].filter(
        (i) => i.state === 'running' && i.cluster === cluster,
      );
      return send(res, 200, { instances });
    }
    if (req.method === 'POST' && url.pathname === '/v1/instances') {
      const request = JSON.parse(await readBody(req)) as LaunchRequest;
      const existing = [...this.#instances.values()].find(
        (i) => i.clientToken === request.clientToken && i.state === 'running',
      );
      if (existing !== undefined) return send(res, 200, existing);
      if (this.#noCapacity.has(offeringKey(request))) {
        return send(res, 409, {
          code: 'InsufficientCapacity',
          message: `no capacity for ${offeringKey(request)}`,
        });
      }
      return send(res, 201, this.#launch(request));
    }
    const instance = id === undefined ? undefined : this.#instances.get(decodeURIComponent(id));
    if (id !== undefined && (instance === undefined || instance.state === 'terminated')) {
      return send(res, 404, { code: 'NotFound', message: `instance ${id} not found` });
    }
    if (req.method === 'GET' && instance !== undefined) return send(res, 200, instance);
    if (req.method === 'DELETE' && instance !== undefined) {
      this.#set({ ...instance, state: 'terminated' });
      return send(res, 200, {});
    }
    return send(res, 404, { code: 'NotFound', message: `no route ${req.method} ${url.pathname}` });
  }

  #launch(request: LaunchRequest): WireInstance {
    const instance: WireInstance = {
      ...request,
      id: `i-${randomBytes(6).toString('hex')}`,
      state: 'running',
      launchTime: new Date().toISOString(),
    };
    this.#set(instance);
    return instance;
  }

  #set(instance: WireInstance): void {
    this.#instances.set(instance.id, instance);
    for (const listener of this.#listeners) listener(this.#asMockInstance(instance));
  }

  #asMockInstance(instance: WireInstance): MockInstance {
    const type = this.#types.find((t) => t.name === instance.instanceType);
    return {
      providerID: providerIDOf(instance),
      nodeName: instance.id,
      instanceType: instance.instanceType,
      zone: instance.zone,
      capacityType: instance.capacityType === 'spot' ? 'spot' : 'on-demand',
      architecture: 'amd64',
      capacity: type?.capacity ?? {},
      allocatable: allocatableOf(type),
      labels: { ...(type?.labels ?? {}), ...instance.tags },
      state: instance.state,
      launchedAt: Date.parse(instance.launchTime),
    };
  }
}

/** Capacity less the type's overhead, as kubelet would report it. */
function allocatableOf(type: CatalogInstanceType | undefined): Record<string, string> {
  if (type === undefined) return {};
  const overhead = {
    kubeReserved: parseResourceList(type.overhead?.kubeReserved),
    systemReserved: parseResourceList(type.overhead?.systemReserved),
    evictionThreshold: parseResourceList(type.overhead?.evictionThreshold),
  };
  return formatResourceList(computeAllocatable(parseResourceList(type.capacity), overhead));
}

function offeringKey(o: { capacityType: string; instanceType: string; zone: string }): string {
  return `${o.capacityType}:${o.instanceType}:${o.zone}`;
}

function wireError(code: string, error: unknown): WireError {
  return { code, message: error instanceof Error ? error.message : String(error) };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
}
