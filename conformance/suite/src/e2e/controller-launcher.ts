import type { ControllerExit } from './controller-process.js';
import type { E2EEnvironment } from './environment.js';
import type { LogEntry } from './json-lines.js';

/**
 * One controller replica the cluster end-to-end suite started: a child process of the test
 * (ControllerProcess) or a Pod in the cluster. The suite only talks to it through this.
 */
export interface LaunchedController {
  /** Its leader-election identity, as it writes it into the Lease and its log lines. */
  readonly identity: string;
  /** How it ended, once that was seen; undefined while it runs. */
  readonly exit: ControllerExit | undefined;
  /** The structured log lines seen so far, oldest first. */
  entries(): readonly LogEntry[];
  /**
   * Resolves with the first log entry (past or future) that `match` accepts.
   * @throws when it ends first, or after `timeoutMs`, quoting its last output.
   */
  waitForLog(match: (entry: LogEntry) => boolean, what: string, timeoutMs: number): Promise<LogEntry>;
  /** GETs a path on its health or metrics listener; never throws on an HTTP status. */
  http(what: 'health' | 'metrics', path: string): Promise<{ status: number; body: string }>;
  /** Ends it with no shutdown and no Lease release, as a crash or a lost machine does. */
  kill(): Promise<ControllerExit>;
  /** Asks it to shut down gracefully and resolves with how it ended. */
  stop(): Promise<ControllerExit>;
}

/** What a launcher is started with, once the suite's cluster and mock cloud run. */
export interface ControllerLaunchContext {
  readonly env: E2EEnvironment;
  /** The value of `--provider`. */
  readonly provider: string;
  /** Provider settings, the mock cloud's included (endpoints, static credentials). */
  readonly settings: Readonly<Record<string, string>>;
  /** The leader-election Lease every replica competes for. */
  readonly leaderElectionId: string;
}

/**
 * Starts controller replicas for one e2e file. The default runs the built CLI as child
 * processes; an in-cluster launcher runs them as Pods of the installed chart.
 */
export interface ControllerLauncher {
  /** The namespace the replicas keep their Lease in. */
  readonly leaseNamespace: string;
  /** Starts a replica with this identity; it competes for the Lease at once. */
  start(identity: string): Promise<LaunchedController>;
  /** Releases what `start` and the launcher's own set-up made; the replicas are stopped first. */
  close(): Promise<void>;
}

/** Makes the launcher of one e2e file, after its cluster (and mock cloud) started. */
export type ControllerLauncherFactory = (context: ControllerLaunchContext) => Promise<ControllerLauncher>;
