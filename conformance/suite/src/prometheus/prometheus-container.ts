import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killOnProcessEnd } from '@nodewright/conformance/cluster';
import { GenericContainer, type StartedTestContainer } from 'testcontainers';
import { PrometheusApi } from './prometheus-api.js';
import { type PrometheusSpec, preparePrometheus } from './prometheus-process.js';

/** Makes a Docker engine answer, installing and starting one where there is none. */
export const EnsureDockerScript = fileURLToPath(
  new URL('../../../../deploy/image/ensure-docker.sh', import.meta.url),
);

/** The image's Dockerfile: the static, Go-built binary alone, so nothing is pulled (`scratch` is not an image). */
export const PrometheusDockerfile = [
  'FROM scratch',
  'COPY prometheus /bin/prometheus',
  'USER 65534:65534',
  'ENTRYPOINT ["/bin/prometheus"]',
  '',
].join('\n');

function run(command: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Makes a Docker engine answer (deploy/image/ensure-docker.sh), then builds an image of the
 * Prometheus binary `binary` (ensurePrometheus) unless one of the same binary exists, and
 * resolves to its name: `nodewright-local/prometheus:<binary's hash>`.
 */
export async function ensurePrometheusImage(binary: string): Promise<string> {
  const engine = await run('bash', [EnsureDockerScript]);
  if (engine.code !== 0)
    throw new Error(`${EnsureDockerScript} failed (exit ${engine.code}): ${engine.output.slice(-2000)}`);
  const image = `nodewright-local/prometheus:${(await sha256(binary)).slice(0, 12)}`;
  if (spawnSync('docker', ['image', 'inspect', image], { stdio: 'ignore' }).status === 0) return image;
  const context = await mkdtemp(join(tmpdir(), 'nodewright-prometheus-image-'));
  try {
    await copyFile(binary, join(context, 'prometheus'));
    await writeFile(join(context, 'Dockerfile'), PrometheusDockerfile);
    const built = await run('docker', ['build', '-t', image, context]);
    if (built.code !== 0) throw new Error(`docker build ${image} failed: ${built.output.slice(-2000)}`);
  } finally {
    await rm(context, { recursive: true, force: true });
  }
  return image;
}

/** How to start Prometheus in a container: as PrometheusSpec, with the image instead of the binary. */
export interface PrometheusContainerSpec extends Omit<PrometheusSpec, 'binary' | 'registry'> {
  /** ensurePrometheusImage's image. */
  readonly image: string;
}

/**
 * Prometheus in a container started through testcontainers' GenericContainer, on the host's
 * network (it scrapes a controller listening on loopback) and as this process's user, with its
 * config and TSDB bind-mounted at their own paths, so snapshots and logs land where
 * PrometheusProcess puts them. The container is removed on stop and when this process ends.
 */
export class PrometheusContainer extends PrometheusApi {
  readonly #container: StartedTestContainer;
  readonly #detach: () => void;
  #stopped = false;

  private constructor(url: string, container: StartedTestContainer) {
    super(url);
    this.#container = container;
    const id = container.getId();
    // testcontainers' reaper is off (its image cannot be pulled here): remove it ourselves.
    this.#detach = killOnProcessEnd(() => {
      if (!this.#stopped) spawnSync('docker', ['rm', '-f', id], { stdio: 'ignore' });
    });
  }

  /** Writes the config, starts the container and resolves once Prometheus answers /-/ready. */
  static async start(spec: PrometheusContainerSpec, readyTimeoutMs = 60_000): Promise<PrometheusContainer> {
    const prepared = await preparePrometheus(spec);
    const log = createWriteStream(join(spec.dir, 'prometheus.log'));
    const mounts = [{ source: spec.dir, target: spec.dir, mode: 'rw' as const }];
    if (relative(spec.dir, prepared.tsdb).startsWith('..'))
      mounts.push({ source: dirname(prepared.tsdb), target: dirname(prepared.tsdb), mode: 'rw' as const });
    const uid = process.getuid?.() ?? 65534;
    const gid = process.getgid?.() ?? 65534;
    const container = await new GenericContainer(spec.image)
      .withNetworkMode('host')
      .withUser(`${uid}:${gid}`)
      .withBindMounts(mounts)
      .withCommand([...prepared.args])
      .withLogConsumer((stream) => stream.pipe(log))
      .start();
    const prom = new PrometheusContainer(`http://${prepared.listen}`, container);
    try {
      await prom.awaitReady(readyTimeoutMs, () => undefined, `${spec.dir}/prometheus.log`);
    } catch (err) {
      await prom.stop();
      throw err;
    }
    return prom;
  }

  /** SIGTERM (Prometheus flushes its head), SIGKILL after `graceMs`; then the container is removed. */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    try {
      await this.#container.stop({ timeout: graceMs, remove: true });
    } finally {
      this.#detach();
    }
  }
}
