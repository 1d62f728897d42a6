import { randomBytes } from 'node:crypto';
import { CapacityTypes, Labels, type NodeClaim, type NodePool } from '@nodewright/core/apis';
import type { OfferingKey } from '@nodewright/core/cloudprovider';
import { parseResourceList, Requirements, type ResourceList } from '@nodewright/core/scheduling';
import { aNodeClaimFor, aNodePool } from '@nodewright/core/testing';

/** What every contract claim asks for: small enough for any real type. */
export const ContractRequests: Readonly<Record<string, string>> = { cpu: '1', memory: '1Gi', pods: '1' };

type RequirementInput = {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
};

/** Builds NodeClaims for one fixture's NodePool, with names unique across runs on a shared cluster. */
export class ContractClaims {
  readonly #pool: NodePool;
  readonly #prefix: string;
  #n = 0;

  constructor(nodePool: NodePool) {
    this.#pool = nodePool;
    this.#prefix = `contract-${randomBytes(4).toString('hex')}`;
  }

  /** A NodeClaim of the pool, as the provisioner would make it, with `extra` requirements added. */
  claim(extra: readonly RequirementInput[] = []): NodeClaim {
    const pool = this.#pool.metadata.name ?? 'default';
    const template = this.#pool.spec.template.spec.requirements.map(({ key, operator, values }) => ({
      key,
      operator,
      ...(values !== undefined ? { values: [...values] } : {}),
    })) as RequirementInput[];
    return aNodeClaimFor(this.#pool, {
      metadata: { name: `${this.#prefix}-${++this.#n}` },
      spec: {
        requirements: [...template, { key: Labels.NodePool, operator: 'In', values: [pool] }, ...extra],
        resources: { requests: { ...ContractRequests } },
      },
    });
  }

  /** A claim that allows exactly one offering. */
  pinned(offering: OfferingKey): NodeClaim {
    return this.claim([
      { key: Labels.InstanceType, operator: 'In', values: [offering.instanceType] },
      { key: Labels.Zone, operator: 'In', values: [offering.zone] },
      { key: Labels.CapacityType, operator: 'In', values: [offering.capacityType] },
    ]);
  }
}

export function requirementsOf(claim: NodeClaim): Requirements {
  return Requirements.fromNodeSelectorRequirements(claim.spec.requirements);
}

export function requestsOf(claim: NodeClaim): ResourceList {
  return parseResourceList(claim.spec.resources?.requests);
}

/**
 * The NodePool a provider-contract fixture offers: its NodeClass, on-demand or spot, amd64,
 * linux; every harness uses it so the contract asks the same of every provider.
 */
export function contractNodePool(
  name: string,
  nodeClassRef: { readonly group: string; readonly kind: string; readonly name: string },
): NodePool {
  return aNodePool({
    metadata: { name },
    spec: {
      template: {
        spec: {
          nodeClassRef: { ...nodeClassRef },
          requirements: [
            {
              key: Labels.CapacityType,
              operator: 'In',
              values: [CapacityTypes.OnDemand, CapacityTypes.Spot],
            },
            { key: Labels.Arch, operator: 'In', values: ['amd64'] },
            { key: Labels.OS, operator: 'In', values: ['linux'] },
          ],
        },
      },
    },
  });
}

/** The claim with its owner reference naming the stored NodePool's uid, as the provisioner writes it. */
export function ownedBy(claim: NodeClaim, pool: { metadata: { uid?: string | undefined } }): NodeClaim {
  const refs = (claim.metadata.ownerReferences as { uid?: string }[] | undefined)?.map((r) => ({
    ...r,
    uid: pool.metadata.uid ?? '',
  }));
  return { ...claim, metadata: { ...claim.metadata, ownerReferences: refs } };
}
