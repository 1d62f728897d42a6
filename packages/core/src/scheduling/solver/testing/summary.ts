import { Labels } from '../../../apis/labels.js';
import type { SolverResult } from '../types.js';

/** A compact, comparable view of a result, for exact assertions in tests. */
export interface ResultSummary {
  readonly claims: {
    readonly nodePool: string;
    readonly types: string[];
    readonly pods: string[];
    readonly zone: string | undefined;
    readonly price: number;
  }[];
  readonly existing: Record<string, string[]>;
  readonly unschedulable: Record<string, string>;
}

export function summarize(r: SolverResult): ResultSummary {
  return {
    claims: r.newClaims.map((c) => {
      const zone = c.requirements.get(Labels.Zone);
      return {
        nodePool: c.nodePool,
        types: c.instanceTypes.map((t) => t.name),
        pods: c.pods.map((p) => p.metadata.name!),
        zone: zone === undefined ? undefined : zone.describe(),
        price: c.price,
      };
    }),
    existing: Object.fromEntries(r.existing.map((e) => [e.name, e.pods.map((p) => p.metadata.name!)])),
    unschedulable: Object.fromEntries(r.unschedulable.map((u) => [u.pod.metadata.name!, u.reason])),
  };
}
