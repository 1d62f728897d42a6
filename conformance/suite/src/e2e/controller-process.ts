import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { killOnProcessEnd, type ProcessEvents, type ProcessRegistry } from '@nodewright/conformance/cluster';
import { settingVariable } from '@nodewright/core/operator';
import { JsonLineSplitter, type LogEntry } from './json-lines.js';
import { LogWatch } from './log-watch.js';
import { type ProcessMemory, parseProcStatCpuSeconds, parseProcStatus } from './proc-status.js';

/** How to start one `nodewright controller` process. */
export interface ControllerSpec {
  /** The controller's entry script: the built CLI's `bin.js`, or a provider's own binary. */
  readonly binPath: string;
  /** The argument before the flags; default `controller`; null for a binary of its own (runController). */
  readonly subcommand?: string | null;
  /** The Node binary to run it with. Default: the one running this process. */
  readonly nodePath?: string;
  /** Flags for Node itself, before the script, e.g. `['--cpu-prof', '--cpu-prof-dir', dir]`. */
  readonly nodeArgs?: readonly string[];
  readonly provider: string;
  readonly kubeconfigPath: string;
  /** `--identity`; also names the process in errors. */
  readonly identity: string;
  /** `--leader-election-id`: give each cluster's suite its own Lease. */
  readonly leaderElectionId: string;
  /** Provider settings, passed as `NODEWRIGHT_SETTING_*` environment variables. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Further flags, e.g. `['--log-level', 'debug']`. */
  readonly extraArgs?: readonly string[];
  /** Every stdout and stderr line is appended here, for post-mortems. */
  readonly logFile?: string;
  /** Entries kept in memory for `waitForLog`/`entries` (oldest dropped). Default 20,000. */
  readonly keepEntries?: number;
  /**
   * Where the running process is recorded (the e2e environment's pids.json), so that if this
   * test process dies without its exit hooks running (SIGKILL, OOM), the next environment start
   * stops the controller.
   */
  readonly registry?: ProcessRegistry;
  /** The process whose exit or SIGINT/SIGTERM kills the controller; default this one (tests inject). */
  readonly parent?: ProcessEvents;
}

/** How a controller process ended. */
export interface ControllerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The argv after the script path, exactly as cli-flags.md spells the flags. */
export function controllerArgs(spec: ControllerSpec): string[] {
  const subcommand = spec.subcommand === undefined ? 'controller' : spec.subcommand;
  const args = [
    ...(subcommand === null ? [] : [subcommand]),
    '--provider',
    spec.provider,
    '--kubeconfig',
    spec.kubeconfigPath,
    '--health-port',
    '0',
    '--metrics-port',
    '0',
    '--identity',
    spec.identity,
    '--leader-election-id',
    spec.leaderElectionId,
  ];
  args.push(...(spec.extraArgs ?? []));
  return args;
}

/**
 * The provider settings as the process's environment (`NODEWRIGHT_SETTING_*`), as the Helm
 * chart passes them: credentials among them are refused on the command line.
 */
export function controllerEnvironment(spec: ControllerSpec): Record<string, string> {
  return Object.fromEntries(
    Object.entries(spec.settings ?? {}).map(([key, value]) => [settingVariable(key), value]),
  );
}

/**
 * Explains a missing build: the suite runs the built CLI, never the sources, so that what is
 * tested is what ships.
 */
export function requireBuiltCli(binPath: string): void {
  if (!existsSync(binPath)) {
    throw new Error(
      `${binPath} does not exist: the end-to-end suite runs the built CLI. Run \`pnpm build\` first ` +
        '(the documented test command does: see conformance/README.md).',
    );
  }
}

/**
 * One running `nodewright controller` child process: its JSON log lines (parsed), its bound
 * health and metrics ports (from the "serving health"/"serving metrics" lines), its memory,
 * and ways to end it (SIGTERM and wait, or SIGKILL as a crash). It is SIGKILLed when this
 * process exits or gets SIGINT/SIGTERM, and recorded in `spec.registry` while it runs.
 */
export class ControllerProcess {
  readonly spec: ControllerSpec;
  readonly #child: ChildProcess;
  readonly #entries: LogEntry[] = [];
  readonly #stderr: string[] = [];
  readonly #watch: LogWatch;
  readonly #log: WriteStream | undefined;
  readonly #keep: number;
  #exit: ControllerExit | undefined;
  /** Settles when the process has exited. */
  readonly exited: Promise<ControllerExit>;

  private constructor(spec: ControllerSpec) {
    this.spec = spec;
    this.#keep = spec.keepEntries ?? 20_000;
    this.#watch = new LogWatch({
      name: `controller ${spec.identity}`,
      entries: () => this.#entries,
      ended: () => (this.#exit ? `exited (${describeExit(this.#exit)})` : undefined),
      tail: () => this.#tail(),
    });
    this.#log = spec.logFile ? createWriteStream(spec.logFile, { flags: 'a' }) : undefined;
    // A log file that cannot be written (its directory removed under a running suite) costs
    // the post-mortem copy, not the test process: unhandled, the stream's error would crash it.
    this.#log?.on('error', (err) => this.#onText(`[log file ${spec.logFile} not written: ${err.message}]`));
    const node = spec.nodePath ?? process.execPath;
    this.#child = spawn(node, [...(spec.nodeArgs ?? []), spec.binPath, ...controllerArgs(spec)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', ...controllerEnvironment(spec) },
    });
    // The controller dies with this process: an interrupted test run must not leave it acting
    // on a cluster (and holding its Lease) with nobody to stop it.
    const detach = killOnProcessEnd(() => {
      if (this.#exit === undefined) this.#child.kill('SIGKILL');
    }, spec.parent);
    this.#child.once('spawn', () => {
      const pid = this.#child.pid;
      if (pid !== undefined && this.#exit === undefined) {
        spec.registry?.add({ name: `controller ${spec.identity}`, pid, binary: node });
      }
    });
    const stdout = new JsonLineSplitter(
      (entry, line) => this.#onEntry(entry, line),
      (line) => this.#onText(line),
    );
    const stderr = new JsonLineSplitter(
      (entry, line) => this.#onEntry(entry, line),
      (line) => this.#onText(line),
    );
    this.#child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    this.#child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    this.exited = new Promise((resolve) => {
      this.#child.on('exit', (code, signal) => {
        detach();
        if (this.#child.pid !== undefined) spec.registry?.remove(this.#child.pid);
        stdout.end();
        stderr.end();
        this.#exit = { code, signal };
        this.#log?.end();
        this.#wake();
        resolve(this.#exit);
      });
    });
  }

  /** Spawns the controller; fails at once when the CLI is not built. */
  static start(spec: ControllerSpec): ControllerProcess {
    requireBuiltCli(spec.binPath);
    return new ControllerProcess(spec);
  }

  /** The leader-election identity it was started with. */
  get identity(): string {
    return this.spec.identity;
  }

  get pid(): number {
    const pid = this.#child.pid;
    if (pid === undefined) throw new Error(`controller ${this.spec.identity} has no pid (spawn failed)`);
    return pid;
  }

  /** The exit, once it happened. */
  get exit(): ControllerExit | undefined {
    return this.#exit;
  }

  /** The log entries kept so far, oldest first. */
  entries(): readonly LogEntry[] {
    return this.#entries;
  }

  /** Non-JSON output (stderr mostly), for error messages. */
  textLines(): readonly string[] {
    return this.#stderr;
  }

  /**
   * Resolves with the first kept entry (past or future) that `match` accepts.
   * @throws when the process exits first or after `timeoutMs`, quoting its last output.
   */
  waitForLog(match: (entry: LogEntry) => boolean, what: string, timeoutMs: number): Promise<LogEntry> {
    return this.#watch.waitFor(match, what, timeoutMs);
  }

  /** The port a "serving <what>" line reported. */
  async port(what: 'health' | 'metrics', timeoutMs = 30_000): Promise<number> {
    const entry = await this.waitForLog(
      (e) => e.message === `serving ${what}` && typeof e.port === 'number',
      `"serving ${what}" log line`,
      timeoutMs,
    );
    return entry.port as number;
  }

  /** GETs a path on the health or metrics server; resolves with status and body. */
  async http(what: 'health' | 'metrics', path: string): Promise<{ status: number; body: string }> {
    const port = await this.port(what);
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: response.status, body: await response.text() };
  }

  /** Resident and peak memory now, from /proc (Linux). */
  async memory(): Promise<ProcessMemory> {
    return parseProcStatus(await readFile(`/proc/${this.pid}/status`, 'utf8'));
  }

  /** CPU time used so far (user + system), in seconds, from /proc (Linux). */
  async cpuSeconds(): Promise<number> {
    return parseProcStatCpuSeconds(await readFile(`/proc/${this.pid}/stat`, 'utf8'));
  }

  /** SIGKILL, as a crash or a lost machine: no shutdown, no Lease release. */
  async kill(): Promise<ControllerExit> {
    if (!this.#exit) this.#child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit. */
  async stop(graceMs = 40_000): Promise<ControllerExit> {
    if (this.#exit) return this.#exit;
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  #onEntry(entry: LogEntry, line: string): void {
    this.#log?.write(`${line}\n`);
    this.#entries.push(entry);
    if (this.#entries.length > this.#keep) this.#entries.splice(0, this.#entries.length - this.#keep);
    this.#wake();
  }

  #onText(line: string): void {
    this.#log?.write(`${line}\n`);
    this.#stderr.push(line);
    if (this.#stderr.length > 200) this.#stderr.shift();
  }

  #wake(): void {
    this.#watch.wake();
  }

  #tail(): string {
    const lines = [...this.#stderr.slice(-10), ...this.#entries.slice(-10).map((e) => JSON.stringify(e))];
    const where = this.spec.logFile ? ` (full log: ${this.spec.logFile})` : '';
    return lines.length === 0 ? where : `${where}; last output:\n${lines.join('\n')}`;
  }
}

function describeExit(exit: ControllerExit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}
