import { readdir, readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import type { ClusterConnection } from '@nodewright/conformance/cluster';
import {
  type ControllerExit,
  JsonLineSplitter,
  type LaunchedController,
  type LogEntry,
  LogWatch,
  rawRequest,
  waitUntil,
} from '@nodewright/conformance/suite';
import type { Pod } from '@nodewright/core/apis';
import { type ClientNodeCluster, isNotFound, Pods, type UntypedObject } from '@nodewright/core/kube';
import { containerExit, inPodCgroup, type TerminatedState } from './controller-pod.js';

/** What a PodController needs; `killProcess` is injected so the test need not run as root. */
export interface PodControllerOptions {
  readonly cluster: ClientNodeCluster;
  readonly connection: ClusterConnection;
  /** From controllerPod. */
  readonly pod: Record<string, unknown>;
  /** How often the Pod and its log are read. Default 1 s. */
  readonly pollMs?: number;
  /** SIGKILLs the controller process of the Pod (default: hostProcessKiller). */
  readonly killProcess?: (podUid: string, identity: string) => Promise<void>;
}

interface PodStatus {
  readonly metadata: { readonly uid?: string };
  readonly spec?: {
    readonly containers?: readonly { readonly ports?: readonly { name?: string; containerPort: number }[] }[];
  };
  readonly status?: {
    readonly containerStatuses?: readonly { readonly state?: { readonly terminated?: TerminatedState } }[];
  };
}

/**
 * A controller replica running as a Pod (controllerPod) on a cluster whose nodes are containers
 * of this machine's Docker engine (kind). Its log lines and exit come from the API server, read
 * every `pollMs`; its listeners are reached through the API server's Pod proxy. `kill` is a
 * crash: the controller process gets SIGKILL (hostProcessKiller) and the failed Pod is then
 * deleted. `stop` is a Pod deletion: SIGTERM and the Pod's grace period, as an operator's
 * `kubectl delete pod` or a drain gives it.
 */
export class PodController implements LaunchedController {
  readonly identity: string;
  readonly #namespace: string;
  readonly #options: PodControllerOptions;
  #entries: LogEntry[] = [];
  #text: string[] = [];
  #exit: ControllerExit | undefined;
  #uid: string | undefined;
  #ports: Record<string, number> = {};
  #polling = true;
  #timer: NodeJS.Timeout | undefined;
  readonly #watch: LogWatch;

  private constructor(options: PodControllerOptions) {
    const metadata = options.pod.metadata as { name: string; namespace: string };
    this.identity = metadata.name;
    this.#namespace = metadata.namespace;
    this.#options = options;
    this.#watch = new LogWatch({
      name: `controller Pod ${this.identity}`,
      entries: () => this.#entries,
      ended: () => (this.#exit ? `ended (${describe(this.#exit)})` : undefined),
      tail: () => this.#tail(),
    });
  }

  /** Creates the Pod and starts reading it; resolves once the Pod object exists. */
  static async start(options: PodControllerOptions): Promise<PodController> {
    const controller = new PodController(options);
    const created = await options.cluster.create(Pods, options.pod as unknown as Pod);
    controller.#observe(created as unknown as PodStatus);
    controller.#schedule();
    return controller;
  }

  get exit(): ControllerExit | undefined {
    return this.#exit;
  }

  entries(): readonly LogEntry[] {
    return this.#entries;
  }

  waitForLog(match: (entry: LogEntry) => boolean, what: string, timeoutMs: number): Promise<LogEntry> {
    return this.#watch.waitFor(match, what, timeoutMs);
  }

  async http(what: 'health' | 'metrics', path: string): Promise<{ status: number; body: string }> {
    const port = this.#ports[`http-${what}`];
    if (port === undefined)
      throw new Error(`controller Pod ${this.identity} has no container port http-${what}`);
    const response = await rawRequest(
      this.#options.connection,
      'GET',
      `/api/v1/namespaces/${this.#namespace}/pods/${this.identity}:${port}/proxy${path}`,
      { accept: '*/*' },
    );
    return { status: response.status, body: response.text };
  }

  async kill(): Promise<ControllerExit> {
    if (this.#exit) return this.#exit;
    const uid = this.#uid;
    if (uid === undefined) throw new Error(`controller Pod ${this.identity} has no uid yet`);
    await (this.#options.killProcess ?? hostProcessKiller)(uid, this.identity);
    const exit = await this.#ended('its container to end after SIGKILL', 60_000);
    await this.#delete(0);
    return exit;
  }

  async stop(): Promise<ControllerExit> {
    if (this.#exit) {
      await this.#delete(0);
      return this.#exit;
    }
    await this.#delete();
    return this.#ended('its container to end after the Pod was deleted', 90_000);
  }

  /** Waits until the poller saw the container end, then lets the Pod go. */
  async #ended(what: string, timeoutMs: number): Promise<ControllerExit> {
    const exit = await waitUntil(
      async () => this.#exit,
      (e) => e !== undefined,
      { what: `controller Pod ${this.identity}: ${what}`, timeoutMs, intervalMs: 250 },
    );
    await this.#release();
    return exit as ControllerExit;
  }

  async #delete(gracePeriodSeconds?: number): Promise<void> {
    try {
      await this.#options.cluster.delete(
        Pods,
        { namespace: this.#namespace, name: this.identity },
        gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds },
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (this.#exit) await this.#release();
  }

  /** Removes the finalizer and stops polling: the exit code was read. */
  async #release(): Promise<void> {
    this.#polling = false;
    clearTimeout(this.#timer);
    try {
      await this.#options.cluster.patch(
        Pods,
        { namespace: this.#namespace, name: this.identity },
        { metadata: { finalizers: null } },
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  #schedule(): void {
    if (!this.#polling) return;
    this.#timer = setTimeout(() => {
      void this.#poll().finally(() => this.#schedule());
    }, this.#options.pollMs ?? 1000);
  }

  async #poll(): Promise<void> {
    try {
      const pod = await this.#options.cluster.get<UntypedObject>(Pods, {
        namespace: this.#namespace,
        name: this.identity,
      });
      await this.#readLog();
      this.#observe(pod as unknown as PodStatus);
    } catch (error) {
      if (isNotFound(error)) {
        this.#polling = false;
        this.#exit ??= { code: null, signal: null };
        this.#wake();
        return;
      }
      // A slow API server is retried on the next poll; the suite's own waits time out.
      this.#text.push(`[poll failed: ${(error as Error).message}]`);
    }
  }

  async #readLog(): Promise<void> {
    const response = await rawRequest(
      this.#options.connection,
      'GET',
      `/api/v1/namespaces/${this.#namespace}/pods/${this.identity}/log?container=controller`,
      { accept: '*/*' },
    );
    // 400 while the container is being created.
    if (response.status !== 200) return;
    const entries: LogEntry[] = [];
    const text: string[] = [];
    const splitter = new JsonLineSplitter(
      (entry) => entries.push(entry),
      (line) => text.push(line),
    );
    splitter.push(response.text);
    splitter.end();
    // The API server serves the whole log each time: keep the longest reading seen.
    if (entries.length >= this.#entries.length) this.#entries = entries;
    this.#text = text.slice(-200);
    this.#wake();
  }

  #observe(pod: PodStatus): void {
    this.#uid ??= pod.metadata.uid;
    for (const port of pod.spec?.containers?.[0]?.ports ?? []) {
      if (port.name !== undefined) this.#ports[port.name] = port.containerPort;
    }
    const terminated = pod.status?.containerStatuses?.[0]?.state?.terminated;
    if (terminated !== undefined && this.#exit === undefined) {
      this.#exit = containerExit(terminated, constants.signals);
      this.#wake();
    }
  }

  #wake(): void {
    this.#watch.wake();
  }

  #tail(): string {
    const lines = [...this.#text.slice(-10), ...this.#entries.slice(-10).map((e) => JSON.stringify(e))];
    return lines.length === 0 ? '' : `; last output:\n${lines.join('\n')}`;
  }
}

function describe(exit: ControllerExit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

/**
 * SIGKILLs the controller process of Pod `podUid` from this machine: kind's node is a
 * container of the local Docker engine, so the Pod's processes are this machine's processes,
 * found by their cgroup (inPodCgroup) and their `--identity` argument. Needs the rights to
 * signal them (root, as Docker does).
 */
export async function hostProcessKiller(podUid: string, identity: string): Promise<void> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0');
      if (!cmdline.includes(`--identity=${identity}`)) continue;
      if (inPodCgroup(await readFile(`/proc/${name}/cgroup`, 'utf8'), podUid)) found.push(Number(name));
    } catch {
      // The process ended while it was read.
    }
  }
  if (found.length === 0) {
    throw new Error(`no process of Pod ${podUid} with --identity=${identity} on this machine`);
  }
  for (const pid of found) process.kill(pid, 'SIGKILL');
}
