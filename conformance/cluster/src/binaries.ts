import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build script, found from the sources (src/) or the compiled files (dist/src/). */
export function buildScriptPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', 'build', 'build.sh'), join(here, '..', '..', 'build', 'build.sh')];
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) throw new Error(`build script not found; looked at ${candidates.join(', ')}`);
  return found;
}

export interface EnsureBinariesOptions {
  /** Overrides NODEWRIGHT_CLUSTER_CACHE for the build script. */
  cacheRoot?: string;
  /** Where build progress lines go; defaults to this process's stderr. */
  progress?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs build/build.sh, which builds the control-plane binaries into the version-keyed
 * cache unless they are all there already (then it returns at once), and resolves to the
 * bin directory. A cold build takes minutes; its progress is streamed to `progress`.
 */
export function ensureBinaries(options: EnsureBinariesOptions = {}): Promise<string> {
  let script: string;
  try {
    script = buildScriptPath();
  } catch (error) {
    return Promise.reject(error);
  }
  const env = { ...(options.env ?? process.env) };
  if (options.cacheRoot !== undefined) env.NODEWRIGHT_CLUSTER_CACHE = options.cacheRoot;
  const progress = options.progress ?? process.stderr;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => progress.write(chunk));
    child.once('error', (error) => reject(new Error(`cannot run ${script}: ${error.message}`)));
    child.once('close', (code, signal) => {
      const binDir = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && binDir !== '') resolve(binDir);
      else reject(new Error(`${script} failed (${signal ?? `exit ${code}`}); see its output above`));
    });
  });
}
