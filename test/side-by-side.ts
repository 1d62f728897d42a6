import { spawn } from 'node:child_process';

/** One command of a side-by-side run. */
export interface SideJob {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /**
   * Held and written in one block when it ends, so the two outputs never interleave line by
   * line; a job that is not held streams as it runs.
   */
  readonly held: boolean;
}

/** How a job ended. */
export interface JobResult {
  readonly name: string;
  /** Exit code, or null when a signal ended it (or it could not start). */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly seconds: number;
  /** Set when the command could not be started at all. */
  readonly error?: string;
}

/** Where the output goes, and the clock; injected so the runner can be tested. */
export interface SideBySideIO {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly nowMs: () => number;
  readonly env?: NodeJS.ProcessEnv;
  /** Aborting sends SIGTERM to every job still running. */
  readonly signal?: AbortSignal;
}

/**
 * Runs the jobs at the same time and resolves when all have ended. A held job's stdout and
 * stderr are kept in the order they arrived and written to `out` as one block, under a header
 * naming it, when it ends; the others are forwarded as they come. Then one summary line per job.
 * `code` is 0 only when every job exited 0.
 */
export async function runSideBySide(
  jobs: readonly SideJob[],
  io: SideBySideIO,
): Promise<{ readonly results: readonly JobResult[]; readonly code: number }> {
  const results = await Promise.all(jobs.map((job) => runJob(job, io)));
  for (const r of results) io.out(`${summaryLine(r)}\n`);
  return { results, code: results.every((r) => r.code === 0) ? 0 : 1 };
}

/** `[unit] exit 0 after 312 s`, or how it failed. */
export function summaryLine(result: JobResult): string {
  const how =
    result.error !== undefined
      ? `could not start: ${result.error}`
      : result.signal !== null
        ? `ended by ${result.signal}`
        : `exit ${result.code}`;
  return `[${result.name}] ${how} after ${Math.round(result.seconds)} s`;
}

function runJob(job: SideJob, io: SideBySideIO): Promise<JobResult> {
  const startedMs = io.nowMs();
  const seconds = () => (io.nowMs() - startedMs) / 1000;
  return new Promise((resolve) => {
    const held: string[] = [];
    const child = spawn(job.command, job.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: io.env ?? process.env,
      signal: io.signal,
    });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (job.held ? held.push(chunk) : io.out(chunk)));
    child.stderr.on('data', (chunk: string) => (job.held ? held.push(chunk) : io.err(chunk)));
    let failedToStart: string | undefined;
    child.on('error', (error) => {
      // An abort also lands here; the close event still reports the signal.
      if (error.name !== 'AbortError') failedToStart = error.message;
    });
    child.on('close', (code, signal) => {
      const result: JobResult = {
        name: job.name,
        code: failedToStart === undefined ? code : null,
        signal,
        seconds: seconds(),
        ...(failedToStart === undefined ? {} : { error: failedToStart }),
      };
      if (job.held) {
        io.out(`\n${summaryLine(result)}; its output:\n`);
        io.out(held.join(''));
      }
      resolve(result);
    });
  });
}
