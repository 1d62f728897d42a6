import type { Timers } from '@nodewright/core/clock';
import { sleep } from '@nodewright/core/clock';
import type { BillingSku } from '../seed/skus.js';
import { notFound } from './errors.js';
import { matchesFilter, page, parseFilter } from './filter.js';
import type { ComputeState } from './state.js';

/** A request as the routes see it. */
export interface GceRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
}

/** A matched route: the SDK method's name (for faults and counters) and its handler. */
export interface Route {
  readonly method: string;
  readonly run: () => Promise<unknown>;
}

/** What the routes act on. */
export interface RouteDeps {
  readonly compute: ComputeState;
  readonly skus: () => readonly BillingSku[];
  readonly timers: Timers;
}

/** GCE's `wait` returns within about 2 minutes even if the operation is not DONE. */
const WaitLimitMs = 120_000;

const P = '/compute/v1/projects/([^/]+)';
const Z = `${P}/zones/([^/]+)`;

type Handler = (deps: RouteDeps, req: GceRequest, m: string[]) => Promise<unknown> | unknown;

function list<T>(items: readonly T[], req: GceRequest, kind: string, selfLink: string) {
  const filtered = items.filter((i) => matchesFilter(i, parseFilter(req.query.get('filter'))));
  const { items: pageItems, nextPageToken } = page(filtered, req.query);
  return { kind, id: selfLink, items: pageItems, selfLink, ...(nextPageToken ? { nextPageToken } : {}) };
}

const Routes: readonly [httpMethod: string, pattern: RegExp, sdkMethod: string, handler: Handler][] = [
  [
    'GET',
    new RegExp(`^${P}/aggregated/machineTypes$`),
    'machineTypes.aggregatedList',
    ({ compute }, req, [project]) => {
      if (project !== compute.project) throw notFound(`projects/${project}`);
      // Pages over (zone, type) pairs, as GCE pages aggregated lists over their items.
      const flat = compute.zones.flatMap((zone) =>
        compute.machineTypes
          .filter((t) => t.zones.includes(zone))
          .map((t) => compute.machineTypeResource(t, zone)),
      );
      const filtered = flat.filter((i) => matchesFilter(i, parseFilter(req.query.get('filter'))));
      const { items, nextPageToken } = page(filtered, req.query);
      const byZone: Record<string, { machineTypes: unknown[] }> = {};
      for (const item of items) {
        const key = `zones/${item.zone}`;
        byZone[key] ??= { machineTypes: [] };
        byZone[key].machineTypes.push(item);
      }
      return {
        kind: 'compute#machineTypeAggregatedList',
        items: byZone,
        ...(nextPageToken ? { nextPageToken } : {}),
      };
    },
  ],
  [
    'GET',
    new RegExp(`^${Z}/machineTypes/([^/]+)$`),
    'machineTypes.get',
    ({ compute }, _req, [project, zone, name]) => {
      compute.requireZone(project!, zone!);
      return compute.machineTypeResource(compute.machineType(zone!, name!), zone!);
    },
  ],
  [
    'POST',
    new RegExp(`^${Z}/instances$`),
    'instances.insert',
    ({ compute }, req, [project, zone]) => {
      compute.requireZone(project!, zone!);
      return compute.operationResource(compute.insert(zone!, req.body, req.query.get('requestId')));
    },
  ],
  [
    'POST',
    new RegExp(`^${Z}/instances/bulkInsert$`),
    'instances.bulkInsert',
    ({ compute }, req, [project, zone]) => {
      compute.requireZone(project!, zone!);
      return compute.operationResource(compute.bulkInsert(zone!, req.body));
    },
  ],
  [
    'GET',
    new RegExp(`^${Z}/instances$`),
    'instances.list',
    ({ compute }, req, [project, zone]) => {
      compute.requireZone(project!, zone!);
      const items = compute.instances(zone).map((i) => compute.instanceResource(i));
      return list(items, req, 'compute#instanceList', `${compute.base()}/zones/${zone}/instances`);
    },
  ],
  [
    'GET',
    new RegExp(`^${Z}/instances/([^/]+)$`),
    'instances.get',
    ({ compute }, _req, [project, zone, name]) => {
      compute.requireZone(project!, zone!);
      return compute.instanceResource(compute.instance(zone!, name!));
    },
  ],
  [
    'DELETE',
    new RegExp(`^${Z}/instances/([^/]+)$`),
    'instances.delete',
    ({ compute }, _req, [project, zone, name]) => {
      compute.requireZone(project!, zone!);
      return compute.operationResource(compute.delete(zone!, name!));
    },
  ],
  [
    'GET',
    new RegExp(`^${Z}/operations$`),
    'zoneOperations.list',
    ({ compute }, req, [project, zone]) => {
      compute.requireZone(project!, zone!);
      const items = compute.operations(zone!).map((o) => compute.operationResource(o));
      return list(items, req, 'compute#operationList', `${compute.base()}/zones/${zone}/operations`);
    },
  ],
  [
    'GET',
    new RegExp(`^${Z}/operations/([^/]+)$`),
    'zoneOperations.get',
    ({ compute }, _req, [project, zone, name]) => {
      compute.requireZone(project!, zone!);
      return compute.operationResource(compute.operation(zone!, name!));
    },
  ],
  [
    'POST',
    new RegExp(`^${Z}/operations/([^/]+)/wait$`),
    'zoneOperations.wait',
    async ({ compute, timers }, _req, [project, zone, name]) => {
      compute.requireZone(project!, zone!);
      const op = compute.operation(zone!, name!);
      // A timer can fire a millisecond before the clock has moved as far (timers and the clock
      // round differently), so wait again until the operation is DONE or the limit is spent:
      // a `wait` that returns early without reason would make callers see RUNNING at random.
      let budget = WaitLimitMs;
      for (let left = compute.untilDone(op); left > 0 && budget > 0; left = compute.untilDone(op)) {
        const step = Math.min(left + 1, budget);
        await sleep(timers, step);
        budget -= step;
      }
      return compute.operationResource(op);
    },
  ],
  [
    'GET',
    new RegExp(`^${P}/global/images/family/([^/]+)$`),
    'images.getFromFamily',
    ({ compute }, _req, [project, family]) => {
      const image = compute.images.get(`${project}/family/${family}`);
      if (image === undefined) throw notFound(`projects/${project}/global/images/family/${family}`);
      return image;
    },
  ],
  [
    'GET',
    new RegExp(`^${P}/global/images/([^/]+)$`),
    'images.get',
    ({ compute }, _req, [project, name]) => {
      const image = compute.images.get(`${project}/${name}`);
      if (image === undefined) throw notFound(`projects/${project}/global/images/${name}`);
      return image;
    },
  ],
  [
    'GET',
    /^\/v1\/services\/([^/]+)\/skus$/,
    'cloudbilling.skus.list',
    ({ skus }, req, [service]) => {
      if (service !== '6F81-5844-456A') throw notFound(`services/${service}`);
      const size = Math.min(Number(req.query.get('pageSize') ?? 5000) || 5000, 5000);
      const query = new URLSearchParams(req.query);
      query.set('maxResults', String(size));
      const { items, nextPageToken } = page(skus(), query);
      return { skus: items, nextPageToken: nextPageToken ?? '' };
    },
  ],
];

/** The route for a request, or undefined (the server answers 404). */
export function route(deps: RouteDeps, req: GceRequest): Route | undefined {
  for (const [httpMethod, pattern, sdkMethod, handler] of Routes) {
    if (httpMethod !== req.method) continue;
    const m = pattern.exec(req.path);
    if (m === null) continue;
    const args = m.slice(1).map(decodeURIComponent);
    return { method: sdkMethod, run: async () => handler(deps, req, args) };
  }
  return undefined;
}
