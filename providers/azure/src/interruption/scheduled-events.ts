import { CapacityTypes, Labels } from '@nodewright/core/apis';
import type {
  InterruptionKind,
  InterruptionNotice,
  InterruptionSource,
} from '@nodewright/core/cloudprovider';
import { type ClusterPort, type KubeObject, Nodes } from '@nodewright/core/kube';

/**
 * The Node conditions AKS's node problem detector sets from the VM's Scheduled Events
 * (IMDS `/metadata/scheduledevents`, readable only from inside the VM), and what each means
 * for the node: a Spot eviction ahead of its `NotBefore`, or platform maintenance that takes
 * the VM down (reboot in place, redeploy to another host).
 */
export const ScheduledEventConditions: Readonly<Record<string, InterruptionKind>> = {
  PreemptScheduled: 'SpotInterruption',
  RebootScheduled: 'ScheduledMaintenance',
  RedeployScheduled: 'ScheduledMaintenance',
};

interface NodeCondition {
  readonly type?: string;
  readonly status?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

type NodeView = KubeObject & {
  spec?: { providerID?: string };
  status?: { conditions?: readonly NodeCondition[] };
};

/**
 * The interruption notices a Node's scheduled-event conditions call for: one per condition of
 * {@link ScheduledEventConditions} that is True. Its id names the Node, the event and when the
 * condition turned True, so a later event of the same type is a new notice. A Preempt carries
 * the Node's offering (size, zone, spot) to mark unavailable. Pure.
 */
export function scheduledEventNotices(node: NodeView): InterruptionNotice[] {
  const providerID = node.spec?.providerID ?? '';
  if (providerID === '') return [];
  const labels = node.metadata?.labels ?? {};
  const name = node.metadata?.name ?? '';
  return (node.status?.conditions ?? []).flatMap((c) => {
    const kind = ScheduledEventConditions[c.type ?? ''];
    if (kind === undefined || c.status !== 'True') return [];
    const preempt = kind === 'SpotInterruption';
    return [
      {
        id: `scheduled/${name}/${c.type}/${c.lastTransitionTime ?? ''}`,
        kind,
        providerID,
        ...(preempt
          ? {
              offering: {
                capacityType: CapacityTypes.Spot,
                instanceType: labels[Labels.InstanceType] ?? '',
                zone: labels[Labels.Zone] ?? '',
              },
            }
          : {}),
        message: `Azure scheduled event ${c.type?.replace(/Scheduled$/, '')} on node ${name}${c.message ? `: ${c.message}` : ''}`,
      },
    ];
  });
}

/**
 * Scheduled events as the node problem detector surfaces them: each `receive` lists the
 * Nodes and returns the notices of their scheduled-event conditions not yet acknowledged.
 * A notice is returned again until acknowledged (so a controller that dies before acting sees
 * it again), and forgotten once its condition is gone.
 */
export class ScheduledEventWatcher implements InterruptionSource {
  readonly #acknowledged = new Set<string>();

  constructor(private readonly cluster: ClusterPort) {}

  async receive(): Promise<InterruptionNotice[]> {
    const nodes = (await this.cluster.list<NodeView>(Nodes)).items;
    const notices = nodes.flatMap(scheduledEventNotices);
    const current = new Set(notices.map((n) => n.id));
    for (const id of this.#acknowledged) if (!current.has(id)) this.#acknowledged.delete(id);
    return notices.filter((n) => !this.#acknowledged.has(n.id));
  }

  async acknowledge(notice: InterruptionNotice): Promise<void> {
    this.#acknowledged.add(notice.id);
  }
}

/** Several interruption sources as one: notices of all, each acknowledged by the source that gave it. */
export class InterruptionSources implements InterruptionSource {
  readonly #owner = new Map<string, InterruptionSource>();

  constructor(private readonly sources: readonly InterruptionSource[]) {}

  async receive(signal?: AbortSignal): Promise<InterruptionNotice[]> {
    const batches = await Promise.all(this.sources.map((s) => s.receive(signal)));
    batches.forEach((notices, i) => {
      for (const n of notices) this.#owner.set(n.id, this.sources[i]!);
    });
    return batches.flat();
  }

  async acknowledge(notice: InterruptionNotice): Promise<void> {
    const owner = this.#owner.get(notice.id);
    this.#owner.delete(notice.id);
    await owner?.acknowledge(notice);
  }
}
