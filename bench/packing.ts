// Packing quality of one provisioning decision (issue 18, item 3): random generic workloads on a
// real c/m/r catalog, a Karpenter-style first-fit-decreasing baseline, and the exact optimum
// from a mixed-integer program solved by HiGHS. Used by `bench:schedule`.
import { type Pod, podSchema } from '../packages/core/dist/apis/index.js';
import { instanceTypesFromCatalog } from '../packages/core/dist/catalog/index.js';
import type { InstanceType } from '../packages/core/dist/cloudprovider/index.js';
import { awsCatalog, readAwsCatalogData } from '../providers/aws/dist/index.js';
import type { Xorshift32 } from './calibration.ts';
import { unlimitedNodePool } from './karpenter-benchmark.ts';

// ---------------------------------------------------------------------------------------------
// The catalog

/** The families: compute (2 GiB/vCPU), general purpose (4) and memory optimised (8). */
const Families = ['c6i', 'm6i', 'r6i'];

/**
 * c6i, m6i and r6i from large to 32xlarge (no metal) at their us-east-1 on-demand list prices,
 * with the AWS provider's own capacity and kubelet overhead (providers/aws/data/aws-catalog.json):
 * 27 types whose prices keep AWS's ratios (c : m : r = 0.085 : 0.096 : 0.126 per large).
 */
export function packingCatalog(): InstanceType[] {
  const data = readAwsCatalogData();
  const rows = data.instanceTypes.filter((row) => {
    const [family, size] = row.name.split('.');
    return Families.includes(family!) && size !== 'metal';
  });
  const { instanceTypes, problems } = instanceTypesFromCatalog(
    awsCatalog({ data: { ...data, instanceTypes: rows } }),
  );
  if (problems.length > 0) throw new Error(`packing catalog: ${problems.length} problems`);
  return instanceTypes;
}

/** One NodePool without limits that launches on-demand capacity only. */
export function onDemandNodePool() {
  return unlimitedNodePool([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }]);
}

/** A type as the packing models see it: on-demand price and allocatable in millicores, MiB, pods. */
export interface Bin {
  readonly name: string;
  readonly price: number;
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
}

export function binsOf(types: readonly InstanceType[]): Bin[] {
  const units = (type: InstanceType, resource: string, per: bigint) =>
    Number((type.allocatable.get(resource)?.nanos ?? 0n) / per);
  return types.map((type) => ({
    name: type.name,
    price: Math.min(
      ...type.offerings.filter((o) => o.available && o.capacityType === 'on-demand').map((o) => o.price),
    ),
    cpu: units(type, 'cpu', 1_000_000n),
    memory: units(type, 'memory', 1_000_000_000n * 1024n * 1024n),
    pods: units(type, 'pods', 1_000_000_000n),
  }));
}

// ---------------------------------------------------------------------------------------------
// The workload

/** Pods of one shape (a Deployment's replicas): requests in millicores and MiB. */
export interface PodShape {
  readonly cpu: number;
  readonly memory: number;
  readonly count: number;
}

export interface Workload {
  readonly pods: Pod[];
  readonly shapes: PodShape[];
}

const CpuMilli = [100, 250, 500, 750, 1000, 1500, 2000, 3000, 4000];
/** MiB per vCPU requested: from compute-heavy to cache-like services. */
const MemoryPerCpu = [512, 1024, 2048, 3072, 4096, 6144, 8192];

/**
 * 12-200 generic pods (no topology, affinity or ports) in 2-8 Deployments, each of one random
 * shape: cpu from 100m to 4, memory 0.5-8 GiB per vCPU requested. Draws: pod count, Deployment
 * count, then per Deployment cpu and memory ratio, then each pod's Deployment.
 */
export function packingWorkload(rng: Xorshift32, index: number): Workload {
  const total = 12 + rng.int(189);
  const deployments = 2 + rng.int(7);
  const shapes = Array.from({ length: deployments }, () => {
    const cpu = rng.pick(CpuMilli);
    return { cpu, memory: Math.round((cpu * rng.pick(MemoryPerCpu)) / 1000), count: 0 };
  });
  for (let i = 0; i < total; i++) shapes[i < deployments ? i : rng.int(deployments)]!.count++;
  const pods: Pod[] = [];
  shapes.forEach((shape, d) => {
    for (let r = 0; r < shape.count; r++) {
      pods.push(
        podSchema.parse({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `w${index}-d${d}-${r}`,
            namespace: 'default',
            uid: `00000000-0000-0000-${String(index).padStart(4, '0')}-${String(pods.length).padStart(12, '0')}`,
            creationTimestamp: '2025-01-01T00:00:00Z',
            labels: { app: `d${d}` },
          },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'app',
                resources: { requests: { cpu: `${shape.cpu}m`, memory: `${shape.memory}Mi` } },
              },
            ],
          },
        }),
      );
    }
  });
  return { pods, shapes };
}

// ---------------------------------------------------------------------------------------------
// Karpenter-style first-fit decreasing

/**
 * The price of Karpenter's packing without nodewright's re-pack: pods largest first (cpu, then
 * memory) each go onto the first open node whose cumulative requests some type still holds, else
 * open a new node; each node then launches as the cheapest type that holds what it got.
 */
export function firstFitDecreasingPrice(shapes: readonly PodShape[], bins: readonly Bin[]): number {
  const pods = shapes
    .flatMap((s) => Array<PodShape>(s.count).fill(s))
    .sort((a, b) => b.cpu - a.cpu || b.memory - a.memory);
  const nodes: Array<{ cpu: number; memory: number; pods: number }> = [];
  const holds = (b: Bin, n: { cpu: number; memory: number; pods: number }) =>
    n.cpu <= b.cpu && n.memory <= b.memory && n.pods <= b.pods;
  for (const p of pods) {
    const grown = (n: { cpu: number; memory: number; pods: number }) => ({
      cpu: n.cpu + p.cpu,
      memory: n.memory + p.memory,
      pods: n.pods + 1,
    });
    const i = nodes.findIndex((n) => bins.some((b) => holds(b, grown(n))));
    if (i >= 0) nodes[i] = grown(nodes[i]!);
    else nodes.push(grown({ cpu: 0, memory: 0, pods: 0 }));
  }
  let price = 0;
  for (const n of nodes) price += Math.min(...bins.filter((b) => holds(b, n)).map((b) => b.price));
  return price;
}

// ---------------------------------------------------------------------------------------------
// The exact optimum

/** The part of highs-js's loaded module used here (CPLEX LP text in, solution out). */
export interface Highs {
  solve(
    problem: string,
    options?: Record<string, unknown>,
  ): { Status: string; ObjectiveValue: number; Columns: Record<string, { Primal: number }> };
}

export interface Optimum {
  /** Per hour; the best placement found. */
  readonly price: number;
  /** True when HiGHS proved it optimal within the time limit. */
  readonly proven: boolean;
}

/**
 * The cheapest placement of the shapes' pods onto new nodes of the bins, as a mixed-integer
 * program: for each type a number of node slots (y = 1 when the slot is bought, z = pods of each
 * shape on it), every slot's pods within its allocatable cpu, memory and pods, every pod placed,
 * price minimised. `upperBound` (the price of any feasible placement) caps the slots.
 *
 * Slots are few without losing the optimum: if some type u costs no more than two nodes of type t
 * and its allocatable holds what two t nodes can hold (each resource capped at the workload's
 * total), two t nodes in any placement can be replaced by one u at no extra cost, repeatedly,
 * so some optimal placement has at most one t node. Other types get as many slots as the upper
 * bound can pay for (and no more than the pods that fit). Slots of one type are bought in order,
 * which removes their symmetry.
 */
export function optimumPrice(
  highs: Highs,
  shapes: readonly PodShape[],
  bins: readonly Bin[],
  upperBound: number,
  timeLimitSeconds: number,
): Optimum {
  const total = {
    cpu: shapes.reduce((s, p) => s + p.cpu * p.count, 0),
    memory: shapes.reduce((s, p) => s + p.memory * p.count, 0),
    pods: shapes.reduce((s, p) => s + p.count, 0),
  };
  const useful = bins.filter((b) =>
    shapes.some((s) => s.cpu <= b.cpu && s.memory <= b.memory && b.pods >= 1),
  );
  const slots = useful.map((t) => {
    const doubled = (r: 'cpu' | 'memory' | 'pods') => Math.min(2 * t[r], total[r]);
    const mergeable = useful.some(
      (u) =>
        u !== t &&
        u.price <= 2 * t.price &&
        u.cpu >= doubled('cpu') &&
        u.memory >= doubled('memory') &&
        u.pods >= doubled('pods'),
    );
    return mergeable ? 1 : Math.max(1, Math.min(total.pods, Math.floor((upperBound * (1 + 1e-9)) / t.price)));
  });
  const objective: string[] = [];
  const rows: string[] = [];
  const generals: string[] = [];
  const binaries: string[] = [];
  const bounds: string[] = [];
  const cover: string[][] = shapes.map(() => []);
  useful.forEach((t, ti) => {
    for (let k = 0; k < slots[ti]!; k++) {
      const y = `y_${ti}_${k}`;
      binaries.push(y);
      objective.push(`${t.price} ${y}`);
      if (k > 0) rows.push(`o_${ti}_${k}: y_${ti}_${k - 1} - ${y} >= 0`);
      const z = shapes.map((_, si) => `z_${ti}_${k}_${si}`);
      const fits = shapes.map((s) => s.cpu <= t.cpu && s.memory <= t.memory);
      const terms = (coef: (s: PodShape) => number) =>
        shapes.flatMap((s, si) => (fits[si] ? [`+ ${coef(s)} ${z[si]}`] : [])).join(' ');
      rows.push(`c_${ti}_${k}: ${terms((s) => s.cpu)} - ${t.cpu} ${y} <= 0`);
      rows.push(`m_${ti}_${k}: ${terms((s) => s.memory)} - ${t.memory} ${y} <= 0`);
      rows.push(`p_${ti}_${k}: ${terms(() => 1)} - ${t.pods} ${y} <= 0`);
      shapes.forEach((s, si) => {
        if (!fits[si]) return;
        generals.push(z[si]!);
        bounds.push(`0 <= ${z[si]} <= ${s.count}`);
        cover[si]!.push(z[si]!);
      });
    }
  });
  shapes.forEach((s, si) => {
    rows.push(`d_${si}: ${cover[si]!.join(' + ')} = ${s.count}`);
  });
  const problem = [
    'Minimize',
    ` cost: ${objective.join(' + ')}`,
    'Subject To',
    ...rows.map((r) => ` ${r}`),
    'Bounds',
    ...bounds.map((b) => ` ${b}`),
    'Generals',
    ` ${generals.join(' ')}`,
    'Binaries',
    ` ${binaries.join(' ')}`,
    'End',
  ].join('\n');
  const solution = highs.solve(problem, {
    output_flag: false,
    time_limit: timeLimitSeconds,
    mip_rel_gap: 0,
    mip_abs_gap: 1e-7,
  });
  if (solution.Status === 'Optimal') return { price: solution.ObjectiveValue, proven: true };
  if (Number.isFinite(solution.ObjectiveValue) && solution.ObjectiveValue > 0)
    return { price: solution.ObjectiveValue, proven: false };
  throw new Error(`HiGHS: ${solution.Status}`);
}
