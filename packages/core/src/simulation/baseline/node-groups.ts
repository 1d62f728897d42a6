import { Labels } from '../../apis/labels.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { Requirements } from '../../scheduling/requirements/requirements.js';
import { parseResourceList } from '../../scheduling/resources/resource-list.js';
import type { Scenario, ScenarioPodTemplate } from '../scenario/scenario-schema.js';

/** One Cluster Autoscaler node group: an autoscaling group of one instance type and capacity type. */
export interface NodeGroup {
  /** See nodeGroupName: `<nodePool>-<capacityType>`, or the NodePool's name when it already says it. */
  readonly name: string;
  readonly nodePool: string;
  readonly capacityType: string;
  readonly instanceType: InstanceType;
  /** Labels and taints every node of the group registers with (the NodePool template's). */
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly { key: string; value?: string; effect: string }[];
  readonly minSize: number;
  readonly maxSize: number;
}

/** Label every baseline node carries: its node group. */
export const NodeGroupLabel = 'nodewright.dev/node-group';

/**
 * How many of a NodePool's largest pod a group's instance type must hold. CA users size node
 * groups for several pods per node; with one, every pod would get its own node.
 */
export const HeadroomPods = 4;

/**
 * A node group's name (pure): `<nodePool>-<capacityType>` (`web-spot`), or just the NodePool's
 * name when that already names the capacity type as a word (`spot`, `batch-spot`,
 * `on-demand-web`), so a NodePool called `spot` gives `spot`, not `spot-spot`.
 */
export function nodeGroupName(nodePool: string, capacityType: string): string {
  const says =
    nodePool === capacityType ||
    nodePool.endsWith(`-${capacityType}`) ||
    nodePool.startsWith(`${capacityType}-`) ||
    nodePool.includes(`-${capacityType}-`);
  return says ? nodePool : `${nodePool}-${capacityType}`;
}

const cores = (pod: ScenarioPodTemplate) => parseResourceList(pod.requests).get('cpu')?.toNumber() ?? 0;
const bytes = (pod: ScenarioPodTemplate) => parseResourceList(pod.requests).get('memory')?.toNumber() ?? 0;

/** The scenario's pods a NodePool's requirements admit by nodeSelector. */
function podsFor(pool: NodePool, scenario: Scenario): ScenarioPodTemplate[] {
  const reqs = Requirements.fromNodeSelectorRequirements(pool.spec.template.spec.requirements);
  const templateLabels = pool.spec.template.metadata?.labels ?? {};
  const pods = [...scenario.workloads.deployments, ...scenario.workloads.jobs].map((w) => w.pod);
  return pods.filter((p) =>
    Object.entries(p.nodeSelector ?? {}).every(([k, v]) => {
      if (templateLabels[k] !== undefined) return templateLabels[k] === v;
      const r = reqs.get(k);
      return r === undefined ? k === Labels.NodePool && v === pool.metadata.name : r.has(v);
    }),
  );
}

function cheapestPrice(type: InstanceType, capacityType: string): number | undefined {
  let best: number | undefined;
  for (const o of type.offerings) {
    if (o.capacityType !== capacityType || !o.available) continue;
    if (best === undefined || o.price < best) best = o.price;
  }
  return best;
}

/**
 * The node groups a Cluster Autoscaler user would run in place of the scenario's NodePools
 * (pure): one per NodePool and capacity type its requirements allow (spot, on-demand), each of
 * ONE instance type — the cheapest the NodePool's requirements admit whose allocatable holds
 * `HeadroomPods` of the NodePool's largest pod (by cpu and by memory; NodePools no pod selects
 * size for the scenario's largest pod), named by nodeGroupName. Size 0..the number of such nodes the NodePool's cpu limit
 * allows (1000 without one). Groups are ordered by NodePool weight, then name.
 */
export function chooseNodeGroups(scenario: Scenario, instanceTypes: readonly InstanceType[]): NodeGroup[] {
  const allPods = [...scenario.workloads.deployments, ...scenario.workloads.jobs].map((w) => w.pod);
  const pools = [...scenario.nodePools].sort(
    (a, b) =>
      (b.spec.weight ?? 0) - (a.spec.weight ?? 0) ||
      (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  );
  const out: NodeGroup[] = [];
  for (const pool of pools) {
    const name = pool.metadata.name ?? '';
    const reqs = Requirements.fromNodeSelectorRequirements(pool.spec.template.spec.requirements);
    const selected = podsFor(pool, scenario);
    const pods = selected.length > 0 ? selected : allPods;
    const needCpu = HeadroomPods * Math.max(0, ...pods.map(cores));
    const needMem = HeadroomPods * Math.max(0, ...pods.map(bytes));
    const capacityTypes = reqs.get(Labels.CapacityType);
    for (const capacityType of ['on-demand', 'spot']) {
      if (capacityTypes !== undefined && !capacityTypes.has(capacityType)) continue;
      if (capacityTypes === undefined && capacityType === 'spot') continue;
      let best: { type: InstanceType; price: number } | undefined;
      for (const type of instanceTypes) {
        const typeReqs = type.requirements;
        const compatible = reqs
          .list()
          .every(
            (r) =>
              r.key === Labels.CapacityType ||
              r.key === Labels.Zone ||
              !typeReqs.has(r.key) ||
              typeReqs.get(r.key)!.intersects(r),
          );
        if (!compatible) continue;
        const cpu = type.allocatable.get('cpu')?.toNumber() ?? 0;
        const mem = type.allocatable.get('memory')?.toNumber() ?? 0;
        if (cpu < needCpu || mem < needMem) continue;
        const price = cheapestPrice(type, capacityType);
        if (price === undefined) continue;
        if (best === undefined || price < best.price || (price === best.price && type.name < best.type.name))
          best = { type, price };
      }
      if (best === undefined) continue;
      const cpuLimit = parseResourceList(pool.spec.limits as Record<string, string> | undefined)
        .get('cpu')
        ?.toNumber();
      const perNode = best.type.allocatable.get('cpu')?.toNumber() ?? 1;
      const maxSize =
        cpuLimit === undefined ? 1000 : Math.max(1, Math.floor(cpuLimit / Math.max(perNode, 1e-9)));
      // A short name another group already has (`spot-on-demand` from NodePool `spot`, then NodePool
      // `spot-on-demand` itself) stays long.
      const short = nodeGroupName(name, capacityType);
      const group = out.some((g) => g.name === short) ? `${name}-${capacityType}` : short;
      out.push({
        name: group,
        nodePool: name,
        capacityType,
        instanceType: best.type,
        labels: {
          ...(pool.spec.template.metadata?.labels ?? {}),
          [NodeGroupLabel]: group,
        },
        taints: pool.spec.template.spec.taints ?? [],
        minSize: 0,
        maxSize,
      });
    }
  }
  return out;
}
