import { spawn } from 'node:child_process';

/** The build script, beside the control plane's (same cache layout and lock). */
export const BuildPrometheusScript = new URL('../../../cluster/build/build-prometheus.sh', import.meta.url)
  .pathname;

/**
 * Builds Prometheus from its Go module into the version-keyed cache unless it is there and
 * resolves to the binary's path. The first build takes minutes: its progress goes to stderr.
 */
export function ensurePrometheus(script: string = BuildPrometheusScript): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => process.stderr.write(c));
    child.once('error', (e) => reject(new Error(`cannot run ${script}: ${e.message}`)));
    child.once('close', (code) => {
      const binDir = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || binDir === '') reject(new Error(`${script} failed (exit ${code})`));
      else resolve(`${binDir}/prometheus`);
    });
  });
}
