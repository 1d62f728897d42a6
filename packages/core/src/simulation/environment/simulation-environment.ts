import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { PodDisruptionBudgetStatusController } from '../../kube/memory/disruption-controller.js';
import { MemoryCluster, type MemoryClusterOptions } from '../../kube/memory/memory-cluster.js';
import { PodDisruptionBudgets } from '../../kube/resource-types.js';
import { KubeletNodeRegistrar, type KubeletNodeRegistrarOptions } from '../cloud/node-registration.js';
import type { SimulatedCloudProviderOptions } from '../cloud/options.js';
import { SimulatedCloudProvider } from '../cloud/simulated-cloud-provider.js';
import { PodBinder, type PodBinderOptions } from '../kube/binder/pod-binder.js';
import { KubeletSimulator, type KubeletSimulatorOptions } from '../kube/kubelet/kubelet-simulator.js';
import { WorkloadControllers } from '../kube/workloads/workload-controllers.js';
import { SeededRandom } from '../random/random.js';
import { SimulationErrors, settleSimulation } from '../settle/settle.js';

type Wired = 'clock' | 'timers' | 'random' | 'onError';

/** What a simulated control plane and cloud are built from; everything but the catalog has a default. */
export interface SimulationEnvironmentOptions {
  /** Simulated start time. Default 2026-01-01T00:00:00Z. */
  readonly start?: number | Date;
  /** Seed of every random stream (forked per component). Default `nodewright`. */
  readonly seed?: number | string;
  readonly catalog: readonly InstanceType[];
  /** MemoryCluster options besides the clock (kinds to serve, graceful pod deletion, ...). */
  readonly cluster?: Omit<MemoryClusterOptions, 'clock'>;
  /** SimulatedCloudProvider options besides what the environment wires. */
  readonly cloud?: Omit<SimulatedCloudProviderOptions, Wired | 'catalog' | 'registration'>;
  /** The built-in kubelet registration's options (boot delay, startup taints, ...). */
  readonly registration?: Omit<KubeletNodeRegistrarOptions, Wired | 'cluster'>;
  readonly kubelet?: Omit<KubeletSimulatorOptions, Wired>;
  /**
   * The simulated kube-scheduler; `backoff` gives it kube-scheduler's per-pod backoff on the
   * environment's timers (see BinderBackoff). Default: no backoff.
   */
  readonly binder?: Omit<PodBinderOptions, 'backoff'> & {
    readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
  };
  /**
   * Keep PodDisruptionBudget status current (kube-controller-manager's disruption controller),
   * from the first PDB on. Default true.
   */
  readonly disruptionController?: boolean;
}

/**
 * A simulated cluster and cloud wired together on one fake clock: a MemoryCluster with the
 * PodBinder, WorkloadControllers, KubeletSimulator (and the disruption controller) plugged in,
 * and a SimulatedCloudProvider whose instances register Nodes through a KubeletNodeRegistrar.
 * Controllers under test take `cluster` (as their ClusterPort), `provider`, `clock` and
 * `timers`; the simulation then moves time with `advance`/`runUntil`, which fire timers in
 * order and `settle` after each one.
 */
export class SimulationEnvironment {
  readonly clock: FakeClock;
  readonly timers: ManualTimers;
  readonly random: SeededRandom;
  readonly cluster: MemoryCluster;
  readonly provider: SimulatedCloudProvider;
  /** Errors from work nobody awaits; `settle` rethrows them. */
  readonly errors = new SimulationErrors();
  readonly #stops: (() => void)[];

  constructor(options: SimulationEnvironmentOptions) {
    this.clock = new FakeClock(options.start ?? Date.parse('2026-01-01T00:00:00Z'));
    this.timers = new ManualTimers(this.clock);
    this.random = new SeededRandom(options.seed ?? 'nodewright');
    const onError = this.errors.report;
    const wired = { clock: this.clock, timers: this.timers, onError };
    this.cluster = new MemoryCluster({ ...(options.cluster ?? {}), clock: this.clock });
    const registration = new KubeletNodeRegistrar({
      ...(options.registration ?? {}),
      ...wired,
      cluster: this.cluster,
      random: this.random.fork('registration'),
    });
    this.provider = new SimulatedCloudProvider({
      ...(options.cloud ?? {}),
      ...wired,
      catalog: options.catalog,
      random: this.random.fork('cloud'),
      registration,
    });
    this.#stops = [
      this.cluster.use(
        new PodBinder({
          ...(options.binder?.events === undefined ? {} : { events: options.binder.events }),
          ...(options.binder?.backoff === undefined
            ? {}
            : { backoff: { ...options.binder.backoff, timers: this.timers, onError } }),
        }),
      ),
      this.cluster.use(new WorkloadControllers(wired)),
      this.cluster.use(
        new KubeletSimulator({ ...(options.kubelet ?? {}), ...wired, random: this.random.fork('kubelet') }),
      ),
      ...(options.disruptionController === false ? [] : [this.#startDisruptionControllerWithFirstPdb()]),
    ];
  }

  /**
   * The disruption controller lists every pod of a namespace on each pod event, which costs
   * more than everything else together in a large simulation; it only has work once a
   * PodDisruptionBudget exists, so it starts then.
   */
  #startDisruptionControllerWithFirstPdb(): () => void {
    let stopController: (() => void) | undefined;
    const watch = this.cluster.watch(PodDisruptionBudgets, (event) => {
      if (event.type === 'ADDED' && stopController === undefined) {
        stopController = this.cluster.use(new PodDisruptionBudgetStatusController());
      }
    });
    return () => {
      watch.stop();
      stopController?.();
    };
  }

  /** Waits for all work in flight; rethrows errors from watch handlers and simulated components. */
  settle(): Promise<void> {
    return settleSimulation(this.cluster, this.errors);
  }

  /** Moves simulated time forward, firing due timers in order and settling after each. */
  advance(ms: number): Promise<void> {
    return this.timers.advance(ms, () => this.settle());
  }

  /** Moves simulated time to `at` (ms since the epoch), as `advance` does. */
  runUntil(at: number): Promise<void> {
    return this.timers.runUntil(at, () => this.settle());
  }

  /** Stops the plug-ins (pending timers are left to be dropped with the environment). */
  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }
}
