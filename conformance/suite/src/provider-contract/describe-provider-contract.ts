import { Labels, type NodeClaim } from '@nodewright/core/apis';
import {
  type CloudProvider,
  isInsufficientCapacity,
  isNodeClaimNotFound,
  isNodeClassNotReady,
} from '@nodewright/core/cloudprovider';
import { fits, parseResourceList } from '@nodewright/core/scheduling';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import type { Clause } from '../report/clause-report.js';
import { clauseRecorder, type ReportOptions } from '../report/record-clauses.js';
import { backoffProblems } from './backoff.js';
import { ContractClaims, requestsOf, requirementsOf } from './contract-claims.js';
import { ContractGarbageCollectionGrace, ContractGarbageCollector } from './garbage-collection-pass.js';
import type { ProviderContractFixture, ProviderContractHarness } from './harness.js';
import {
  compatibleOfferings,
  instanceTypeProblems,
  offeringOfClaim,
  unsatisfiedRequirements,
} from './instance-type-checks.js';

/** How often and how long `delete` is called until it answers NodeClaimNotFound. */
const DeletePolls = { attempts: 60, intervalMs: 250 } as const;

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  return undefined;
}

/** Calls delete as core does (until NodeClaimNotFound); returns how many calls returned normally. */
async function deleteUntilGone(provider: CloudProvider, claim: NodeClaim): Promise<number> {
  for (let i = 0; i < DeletePolls.attempts; i++) {
    const err = await thrown(provider.delete(claim));
    if (err !== undefined) {
      if (isNodeClaimNotFound(err)) return i;
      throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, DeletePolls.intervalMs));
  }
  throw new Error(`delete of ${claim.metadata.name} never answered NodeClaimNotFound`);
}

async function providerIDs(provider: CloudProvider): Promise<(string | undefined)[]> {
  return (await provider.list()).map((c) => c.status?.providerID);
}

/** Polls get until the instance answers NodeClaimNotFound (a terminated instance may linger briefly). */
async function untilGone(provider: CloudProvider, providerID: string): Promise<void> {
  for (let i = 0; i < DeletePolls.attempts; i++) {
    const err = await thrown(provider.get(providerID));
    if (isNodeClaimNotFound(err)) return;
    if (err !== undefined) throw err;
    await new Promise((resolve) => setTimeout(resolve, DeletePolls.intervalMs));
  }
  throw new Error(`instance ${providerID} still exists after garbage collection`);
}

function describeError(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/**
 * The provider contract's clauses, in the order they run: each is one test of
 * `describeProviderContract` and one row of its report.
 */
export const ProviderContractClauses: readonly Clause[] = [
  {
    id: 'instance-types',
    title:
      'getInstanceTypes: every type defines the well-known labels, allocatable <= capacity, offerings carry zone, capacity type and a positive price',
  },
  {
    id: 'create-cheapest',
    title: 'create returns a hydrated NodeClaim on the cheapest compatible available offering',
  },
  {
    id: 'get-list-delete',
    title: 'get and list find the instance; delete ends it, then answers NodeClaimNotFound every time',
  },
  {
    id: 'get-unknown',
    title: 'get of an unknown providerID answers NodeClaimNotFound',
  },
  {
    id: 'create-idempotent',
    title: 'the same NodeClaim created twice yields one instance',
  },
  {
    id: 'insufficient-capacity',
    title:
      'insufficient capacity: InsufficientCapacity, the offering marked unavailable, the next create avoids it',
  },
  {
    id: 'nodeclass-not-ready',
    title: 'a NodeClass that is not Ready: NodeClassNotReady, nothing launched',
  },
  {
    id: 'retry-throttled',
    title: 'throttled cloud calls are retried with growing backoff and create still succeeds',
  },
  {
    id: 'retry-server-errors',
    title: 'failing (5xx) cloud calls are retried with growing backoff and create still succeeds',
  },
  {
    id: 'drift',
    title: 'drift: not drifted at launch, drifted after the NodeClass changes',
  },
  {
    id: 'orphan-listed',
    title: 'list finds an orphaned instance (for garbage collection) and get resolves it',
  },
  {
    id: 'gc-orphan-instance',
    title:
      'garbage collection: an instance with no NodeClaim is terminated after its grace period; a claimed one stays',
  },
  {
    id: 'gc-missing-instance',
    title: 'garbage collection: a NodeClaim whose instance is gone is deleted after its grace period',
  },
  {
    id: 'nodeclass-kinds',
    title: 'names its NodeClass kinds and repair policies',
  },
];

/** How `describeProviderContract` runs. */
export interface ProviderContractOptions {
  /** Write `provider-contract-<name>.json` / `.md` (which clauses passed) here after the run. */
  readonly report?: ReportOptions;
}

/**
 * The provider contract (packages/core/src/cloudprovider/cloud-provider.ts) as vitest checks,
 * run against the fixture a provider's harness builds: instance types well-formed; create
 * hydrates, honours the claim's requirements and picks the cheapest compatible available
 * offering; get, list and delete (NotFound after delete, delete idempotent); one instance per
 * NodeClaim name; insufficient capacity and NodeClass readiness errors; retries of throttled and
 * failing cloud calls, each retry after a longer wait; drift; orphans found by list; core's
 * garbage collection ending an unclaimed instance and deleting a claim whose instance is gone.
 * Call it from the provider's test file; `options.report` writes which clauses passed.
 */
export function describeProviderContract(
  harness: ProviderContractHarness,
  options: ProviderContractOptions = {},
): void {
  describe(`provider contract: ${harness.name}`, () => {
    const clause = clauseRecorder('provider-contract', harness.name, ProviderContractClauses, options.report);
    let fx: ProviderContractFixture;
    let claims: ContractClaims;

    beforeEach(async () => {
      fx = await harness.setup();
      claims = new ContractClaims(fx.nodePool);
    });
    afterEach(async () => {
      await fx?.teardown();
    });

    clause('instance-types', async () => {
      const types = await fx.provider.getInstanceTypes(fx.nodePool);
      expect(instanceTypeProblems(types)).toEqual([]);
      expect(types.some((t) => t.offerings.some((o) => o.available))).toBe(true);
    });

    clause('create-cheapest', async () => {
      const claim = claims.claim();
      const types = await fx.provider.getInstanceTypes(fx.nodePool);
      const expected = compatibleOfferings(types, requirementsOf(claim), requestsOf(claim));
      expect(expected.length, 'the fixture NodePool allows no offering').toBeGreaterThan(0);
      const created = await fx.provider.create(claim);
      expect(created.metadata.name).toBe(claim.metadata.name);
      expect(created.status?.providerID ?? '').not.toBe('');
      const labels = created.metadata.labels ?? {};
      for (const key of [Labels.InstanceType, Labels.Zone, Labels.CapacityType]) {
        expect(labels[key], `label ${key}`).toBeTruthy();
      }
      expect(unsatisfiedRequirements(requirementsOf(claim), labels)).toEqual([]);
      const allocatable = parseResourceList(created.status?.allocatable);
      const capacity = parseResourceList(created.status?.capacity);
      expect(capacity.size).toBeGreaterThan(0);
      expect(fits(requestsOf(claim), allocatable), 'allocatable fits the requests').toBe(true);
      const chosen = offeringOfClaim(types, created);
      expect(chosen, 'the labels name an offering of getInstanceTypes').toBeDefined();
      expect(chosen?.price).toBe(expected[0]?.price);
    });

    clause('get-list-delete', async () => {
      const created = await fx.provider.create(claims.claim());
      const providerID = created.status!.providerID!;
      const got = await fx.provider.get(providerID);
      expect(got.status?.providerID).toBe(providerID);
      expect(got.metadata.labels?.[Labels.InstanceType]).toBe(created.metadata.labels?.[Labels.InstanceType]);
      expect((await fx.provider.list()).map((c) => c.status?.providerID)).toContain(providerID);
      await deleteUntilGone(fx.provider, created);
      expect(isNodeClaimNotFound(await thrown(fx.provider.get(providerID))), 'get after delete').toBe(true);
      expect(isNodeClaimNotFound(await thrown(fx.provider.delete(created))), 'delete again').toBe(true);
      expect((await fx.provider.list()).map((c) => c.status?.providerID)).not.toContain(providerID);
    });

    clause('get-unknown', async () => {
      const created = await fx.provider.create(claims.claim());
      const unknown = `${created.status!.providerID!}-missing`;
      expect(isNodeClaimNotFound(await thrown(fx.provider.get(unknown)))).toBe(true);
    });

    clause('create-idempotent', async () => {
      const claim = claims.claim();
      const first = await fx.provider.create(claim);
      const second = await fx.provider.create(structuredClone(claim));
      expect(second.status?.providerID).toBe(first.status?.providerID);
      const listed = (await fx.provider.list()).filter(
        (c) => c.status?.providerID === first.status?.providerID,
      );
      expect(listed).toHaveLength(1);
    });

    clause('insufficient-capacity', async () => {
      const probe = claims.claim();
      const types = await fx.provider.getInstanceTypes(fx.nodePool);
      const [cheapest] = compatibleOfferings(types, requirementsOf(probe), requestsOf(probe));
      expect(cheapest).toBeDefined();
      const offering = {
        instanceType: cheapest!.instanceType,
        zone: cheapest!.zone,
        capacityType: cheapest!.capacityType,
      };
      fx.faults.insufficientCapacity(offering);
      const err = await thrown(fx.provider.create(claims.pinned(offering)));
      expect(isInsufficientCapacity(err), describeError(err)).toBe(true);
      expect(fx.unavailableOfferings.isUnavailable(offering)).toBe(true);
      const after = await fx.provider.getInstanceTypes(fx.nodePool);
      const marked = after
        .find((t) => t.name === offering.instanceType)
        ?.offerings.find((o) => o.zone === offering.zone && o.capacityType === offering.capacityType);
      expect(marked?.available).toBe(false);
      const next = await fx.provider.create(claims.claim());
      expect(offeringOfClaim(after, next)).not.toEqual({ ...offering, price: cheapest!.price });
      expect(next.status?.providerID ?? '').not.toBe('');
    });

    clause('nodeclass-not-ready', async () => {
      const before = (await fx.provider.list()).length;
      await fx.faults.nodeClassNotReady();
      const err = await thrown(fx.provider.create(claims.claim()));
      expect(isNodeClassNotReady(err), describeError(err)).toBe(true);
      expect(await fx.provider.list()).toHaveLength(before);
    });

    const retried = async (fault: (count: number) => void) => {
      const calls = fx.apiCalls();
      const waits = fx.retryDelays().length;
      fault(2);
      const created = await fx.provider.create(claims.claim());
      expect(created.status?.providerID ?? '').not.toBe('');
      expect(fx.apiCalls() - calls).toBeGreaterThanOrEqual(3);
      // Two failed attempts of one call: it waited before each retry, longer the second time.
      const delays = fx.retryDelays().slice(waits);
      expect(delays.length, `waits before retries: ${delays.join(', ')}`).toBeGreaterThanOrEqual(2);
      expect(backoffProblems(delays)).toEqual([]);
    };
    clause('retry-throttled', () => retried((count) => fx.faults.throttle(count)));
    clause('retry-server-errors', () => retried((count) => fx.faults.serverErrors(count)));

    clause('drift', async () => {
      const created = await fx.provider.create(claims.claim());
      expect(await fx.provider.isDrifted(created)).toBeUndefined();
      await fx.faults.drift(created);
      const reason = await fx.provider.isDrifted(created);
      expect(typeof reason === 'string' && reason.length > 0, `drift reason ${String(reason)}`).toBe(true);
    });

    clause('orphan-listed', async () => {
      const providerID = await fx.faults.launchOrphan();
      expect((await fx.provider.list()).map((c) => c.status?.providerID)).toContain(providerID);
      expect((await fx.provider.get(providerID)).status?.providerID).toBe(providerID);
    });

    clause('gc-orphan-instance', async () => {
      const gc = new ContractGarbageCollector(fx.provider);
      const claimed = await fx.provider.create(claims.claim());
      await gc.track(claimed);
      const orphan = await fx.faults.launchOrphan();
      await gc.pass();
      expect(await providerIDs(fx.provider), 'within its grace period').toContain(orphan);
      gc.advancePast(ContractGarbageCollectionGrace.instanceGraceMs + 1_000);
      await gc.pass();
      await untilGone(fx.provider, orphan);
      expect(await providerIDs(fx.provider)).toContain(claimed.status?.providerID);
      expect(await gc.claimNames()).toEqual([claimed.metadata.name]);
    });

    clause('gc-missing-instance', async () => {
      const gc = new ContractGarbageCollector(fx.provider);
      const created = await fx.provider.create(claims.claim());
      await gc.track(created);
      await deleteUntilGone(fx.provider, created);
      await gc.pass();
      expect(await gc.claimNames(), 'within its grace period').toEqual([created.metadata.name]);
      gc.advancePast(ContractGarbageCollectionGrace.claimGraceMs + 1_000);
      await gc.pass();
      expect(await gc.claimNames()).toEqual([]);
    });

    clause('nodeclass-kinds', () => {
      const [first] = fx.provider.supportedNodeClasses();
      expect(first?.group).toBe(fx.nodePool.spec.template.spec.nodeClassRef.group);
      expect(first?.kind).toBe(fx.nodePool.spec.template.spec.nodeClassRef.kind);
      const policies = fx.provider.repairPolicies();
      for (const p of policies) {
        expect(p.tolerationDurationMs).toBeGreaterThan(0);
        expect(p.conditionType).not.toBe('');
        expect(['True', 'False', 'Unknown']).toContain(p.conditionStatus);
      }
      // node.health takes the earliest deadline among matches; two tolerations for one condition would be a typo.
      const pairs = policies.map((p) => `${p.conditionType}=${p.conditionStatus}`);
      expect(new Set(pairs).size, 'one policy per condition type and status').toBe(pairs.length);
    });
  });
}
