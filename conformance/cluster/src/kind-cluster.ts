import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectionFromKubeconfig, renderKubeconfig } from './kubeconfig.js';
import type { LaunchedCluster } from './launched-cluster.js';
import { configViewArgs } from './load-kubeconfig.js';

/** The repository root, found from the sources (src/) or the compiled files (dist/src/). */
function repoRoot(): string {
  const candidates = ['../../../', '../../../../'].map((up) => fileURLToPath(new URL(up, import.meta.url)));
  const found = candidates.find((root) => existsSync(join(root, 'deploy/kind/build-kind.sh')));
  if (found === undefined) throw new Error(`deploy/kind not found; looked under ${candidates.join(', ')}`);
  return found;
}

/**
 * The taint put back on kind's only node. kind removes it from a single-node cluster so that
 * workloads run there; the suite needs the opposite, pods that stay Pending for the autoscaler,
 * as on the binary cluster (no schedulable node). CoreDNS and the
 * kwok Deployment tolerate it.
 */
export const KIND_NODE_TAINT = {
  key: 'node-role.kubernetes.io/control-plane',
  effect: 'NoSchedule',
} as const;

/** How to start a kind cluster; every field has a default suited to the conformance suite. */
export interface StartKindClusterOptions {
  /** The kind cluster's name. Default `nw-suite-<pid>-<random>`: e2e files start their own. */
  name?: string;
  /** Parent of the directory holding the kubeconfigs. Default os.tmpdir(). */
  baseDir?: string;
  /** Keep that directory after stop(). Default false. */
  keepDir?: boolean;
  /** Progress lines; default: written to stderr. */
  log?: (line: string) => void;
}

/** A running kind cluster with kwok installed. */
export interface KindClusterHandle extends LaunchedCluster {
  readonly name: string;
  /** Holds the kubeconfigs. */
  readonly dir: string;
  /** Wall time from the first build step to ready, builds included. */
  readonly startupMs: number;
}

/** What one command printed and how it ended. */
export interface CommandOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end, its stderr passed to `progress` as it comes. */
export type CommandRunner = (
  command: string,
  args: readonly string[],
  progress: (chunk: string) => void,
) => Promise<CommandOutput>;

const spawnCommand: CommandRunner = (command, args, progress) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      progress(chunk);
    });
    child.once('error', (error) => reject(new Error(`cannot run ${command}: ${error.message}`)));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });

/**
 * Starts a kind cluster the way deploy/kind builds it, with nothing pulled: kind and the node
 * image built locally (deploy/kind/build-kind.sh, build-node-image.sh; cached by their inputs,
 * minutes when cold; the latter also starts Docker where none runs), `kind create cluster` from
 * deploy/kind/cluster.yaml, the node tainted (KIND_NODE_TAINT), kwok installed with the
 * suite's stages and no fake Node of its own (deploy/kind/install-kwok.sh), and a JSON
 * kubeconfig written, as the other targets write one. stop() deletes the cluster. A failed
 * start deletes what it made and says which step failed.
 */
export async function startKindCluster(
  options: StartKindClusterOptions = {},
  run: CommandRunner = spawnCommand,
): Promise<KindClusterHandle> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[kind] ${line}\n`));
  const name = options.name ?? `nw-suite-${process.pid}-${randomBytes(3).toString('hex')}`;
  const startedAt = Date.now();
  const forward = (chunk: string) => process.stderr.write(chunk);
  const step = async (what: string, command: string, args: readonly string[]): Promise<string> => {
    const result = await run(command, args, forward);
    if (result.code !== 0) {
      throw new Error(`${what} failed (exit ${result.code}): ${result.stderr.trim().slice(-1500)}`);
    }
    return result.stdout.trim();
  };
  const lastLine = (text: string) => text.split('\n').at(-1) ?? '';
  const root = repoRoot();
  const script = (path: string) => join(root, path);

  const dir = await mkdtemp(join(options.baseDir ?? tmpdir(), 'nodewright-kind-'));
  let kind: string | undefined;
  let created = false;
  try {
    kind = `${lastLine(await step('building kind', 'bash', [script('deploy/kind/build-kind.sh')]))}/kind`;
    const image = lastLine(
      await step('building the node image', 'bash', [script('deploy/kind/build-node-image.sh')]),
    );
    const kubectl = `${lastLine(
      await step('finding kubectl', 'bash', [script('deploy/kind/build-node-image.sh'), '--bin-dir']),
    )}/kubectl`;
    const kindKubeconfig = join(dir, 'kind-kubeconfig.yaml');
    log(`creating cluster ${name} from ${image}`);
    created = true;
    await step('kind create cluster', kind, [
      'create',
      'cluster',
      '--name',
      name,
      '--image',
      image,
      '--config',
      script('deploy/kind/cluster.yaml'),
      '--kubeconfig',
      kindKubeconfig,
      '--wait',
      '180s',
    ]);
    const asAdmin = ['--kubeconfig', kindKubeconfig];
    const taint = `${KIND_NODE_TAINT.key}=:${KIND_NODE_TAINT.effect}`;
    await step('tainting the node', kubectl, [
      ...asAdmin,
      'taint',
      'node',
      `${name}-control-plane`,
      taint,
      '--overwrite',
    ]);
    log('installing kwok');
    await step('installing kwok', 'bash', [script('deploy/kind/install-kwok.sh'), name, '']);
    // ServiceAccount admission rejects Pods until the token controller made this one.
    await step('waiting for the default ServiceAccount', 'bash', [
      '-c',
      'for _ in $(seq 1 60); do "$0" "$@" get serviceaccount default >/dev/null 2>&1 && exit 0; sleep 1; done; exit 1',
      kubectl,
      ...asAdmin,
      '-n',
      'default',
    ]);

    const raw = await step('reading the kubeconfig', kubectl, configViewArgs(kindKubeconfig));
    const connection = connectionFromKubeconfig(JSON.parse(raw), dir);
    if (connection.ca === undefined || connection.cert === undefined || connection.key === undefined) {
      throw new Error(`kind's kubeconfig for ${name} has no embedded CA, client certificate or key`);
    }
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(
      kubeconfigPath,
      renderKubeconfig({
        name: `nodewright-kind-${name}`,
        server: connection.server,
        caPem: connection.ca,
        certPem: connection.cert,
        keyPem: connection.key,
      }),
      { mode: 0o600 },
    );
    const startupMs = Date.now() - startedAt;
    log(`ready in ${(startupMs / 1000).toFixed(1)}s: ${connection.server} (KUBECONFIG=${kubeconfigPath})`);
    const kindPath = kind;
    let stopped: Promise<void> | undefined;
    return {
      name,
      kindName: name,
      dir,
      kubeconfigPath,
      server: connection.server,
      connection,
      startupMs,
      stop() {
        stopped ??= (async () => {
          await step('kind delete cluster', kindPath, ['delete', 'cluster', '--name', name]);
          if (!options.keepDir) await rm(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (error) {
    if (created && kind !== undefined) await run(kind, ['delete', 'cluster', '--name', name], () => {});
    await rm(dir, { recursive: true, force: true });
    throw new Error(
      `kind cluster start failed after ${((Date.now() - startedAt) / 1000).toFixed(1)}s: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
