import { accessSync, constants, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureBinaries } from './binaries.js';
import { createCertificates } from './certificates.js';
import {
  COMPONENTS,
  type ComponentName,
  type ComponentPlan,
  type ControlPlaneLayout,
  componentPlans,
  validateLayout,
} from './components.js';
import { killOnProcessEnd } from './exit-hooks.js';
import { KubeHttpClient, probeHealth } from './kube-http.js';
import { type ClusterConnection, renderKubeconfig } from './kubeconfig.js';
import { DEFAULT_STAGE_OPTIONS, kwokStages, renderKwokConfig, type StageOptions } from './kwok-stages.js';
import { freeClusterPorts } from './ports.js';
import { ProcessSupervisor } from './processes.js';
import { CLUSTER_DIR_PREFIX, PID_RECORD_FILE, sweepStaleClusters } from './stale-clusters.js';

/** How to start a cluster; every field has a default suited to the conformance suite. */
export interface StartClusterOptions {
  /** Use these binaries instead of running build/build.sh. */
  binDir?: string;
  /** Cache root for build/build.sh (else NODEWRIGHT_CLUSTER_CACHE, else ~/.cache/nodewright/cluster). */
  cacheRoot?: string;
  /** Parent of the cluster directory; stale clusters are swept from here. Default: os.tmpdir(). */
  baseDir?: string;
  /** Nodes kwok simulates: those annotated kwok.x-k8s.io/node=fake (default), or all. */
  kwokManages?: 'annotated' | 'all';
  /** Default 40, as kwokctl. */
  nodeLeaseDurationSeconds?: number;
  /** Default: the lease duration. Must not be shorter. */
  nodeMonitorGracePeriodSeconds?: number;
  /** kwok's pod IP range. Default 10.0.0.0/16 (65k pods). */
  podCidr?: string;
  /** Default 10.96.0.0/12. */
  serviceClusterIpRange?: string;
  /** Extra flags per component, appended last (so they override), e.g. `--feature-gates=...`. */
  extraArgs?: Partial<Record<ComponentName, readonly string[]>>;
  /** Timing of the simulated kubelet behaviour. */
  stages?: Partial<Omit<StageOptions, 'kubeletVersion'>>;
  /** Give up starting after this long. Default 180 s. */
  startTimeoutMs?: number;
  /** Keep the cluster directory (logs, certs) after stop(). Default false. */
  keepDir?: boolean;
  /** Progress lines; default: written to stderr. */
  log?: (line: string) => void;
}

/** A running cluster. Stop it exactly once; stopping also happens if this process exits. */
export interface ClusterHandle {
  /** A self-contained kubeconfig (admin, O=system:masters). */
  kubeconfigPath: string;
  /** https://127.0.0.1:<port> */
  server: string;
  /** Credentials and CA, as read from the kubeconfig. */
  connection: ClusterConnection;
  /** Holds certs, kubeconfig, kwok config, logs and the pid record. */
  dir: string;
  logFiles: Record<ComponentName, string>;
  /** Wall time from the start of the first process to ready (build time excluded). */
  startupMs: number;
  stop(): Promise<void>;
}

const POLL_MS = 200;

function writableDir(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// Head and tail: a flag error is printed first and followed by pages of usage text, a
// crash is at the end.
async function excerpt(file: string): Promise<string> {
  const lines = (await readFile(file, 'utf8').catch(() => '')).trimEnd().split('\n');
  if (lines.length <= 30) return lines.join('\n');
  return [...lines.slice(0, 5), `[... ${lines.length - 25} lines ...]`, ...lines.slice(-20)].join('\n');
}

/**
 * Starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok on
 * loopback, each on a free port, and resolves once the API server is ready, every
 * component answers its health check and the default ServiceAccount exists (so Pods can be
 * created). Builds the binaries first when they are not cached. On failure everything
 * started is stopped, the cluster directory is kept and the error names the component and
 * ends with its log.
 */
export async function startCluster(options: StartClusterOptions = {}): Promise<ClusterHandle> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[cluster] ${line}\n`));
  const baseDir = options.baseDir ?? tmpdir();
  const swept = await sweepStaleClusters(baseDir);
  if (swept.removed.length > 0) {
    log(`removed ${swept.removed.length} abandoned cluster(s), stopping ${swept.stopped} process(es)`);
  }
  const binDir =
    options.binDir ?? (await ensureBinaries(options.cacheRoot ? { cacheRoot: options.cacheRoot } : {}));

  const dir = await mkdtemp(join(baseDir, CLUSTER_DIR_PREFIX));
  // etcd on tmpfs when there is one: the suite writes a lot and keeps nothing.
  const etcdDataDir = writableDir('/dev/shm')
    ? await mkdtemp(join('/dev/shm', `${CLUSTER_DIR_PREFIX}etcd-`))
    : join(dir, 'etcd');
  const supervisor = new ProcessSupervisor(join(dir, PID_RECORD_FILE), process.pid, [etcdDataDir]);
  const logFiles = Object.fromEntries(COMPONENTS.map((c) => [c, join(dir, `${c}.log`)])) as Record<
    ComponentName,
    string
  >;

  // If the test runner exits or is interrupted without stop(), take the cluster with it.
  const removeDirsNow = (): void => {
    rmSync(etcdDataDir, { recursive: true, force: true });
    if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
  };
  const detach = killOnProcessEnd(() => {
    supervisor.killNow();
    removeDirsNow();
  });

  const startedAt = Date.now();
  const deadline = startedAt + (options.startTimeoutMs ?? 180_000);
  try {
    const certs = await createCertificates(dir);
    const ports = await freeClusterPorts();
    const server = `https://127.0.0.1:${ports.apiServer}`;
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(
      kubeconfigPath,
      renderKubeconfig({
        name: 'nodewright',
        server,
        caPem: certs.caPem,
        certPem: certs.adminCertPem,
        keyPem: certs.adminKeyPem,
      }),
      { mode: 0o600 },
    );
    const connection: ClusterConnection = {
      server,
      ca: certs.caPem,
      cert: certs.adminCertPem,
      key: certs.adminKeyPem,
    };
    const lease = options.nodeLeaseDurationSeconds ?? 40;
    const layout: ControlPlaneLayout = {
      binDir,
      etcdDataDir,
      caCertFile: certs.caCertFile,
      adminCertFile: certs.adminCertFile,
      adminKeyFile: certs.adminKeyFile,
      kubeconfigFile: kubeconfigPath,
      kwokConfigFile: join(dir, 'kwok.yaml'),
      ports,
      serviceClusterIpRange: options.serviceClusterIpRange ?? '10.96.0.0/12',
      podCidr: options.podCidr ?? '10.0.0.0/16',
      nodeLeaseDurationSeconds: lease,
      nodeMonitorGracePeriodSeconds: options.nodeMonitorGracePeriodSeconds ?? lease,
      kwokManages: options.kwokManages ?? 'annotated',
      extraArgs: options.extraArgs ?? {},
    };
    validateLayout(layout);
    const plans = new Map(componentPlans(layout).map((plan) => [plan.name, plan]));
    const plan = (name: ComponentName): ComponentPlan => plans.get(name)!;

    const waitUntil = async (what: string, check: () => Promise<boolean>): Promise<void> => {
      for (;;) {
        const exit = supervisor.unexpectedExits()[0];
        if (exit) {
          throw new Error(
            `${exit.name} exited (${exit.signal ?? `code ${exit.code}`}) while waiting for ${what}; ` +
              `log ${exit.logFile}:\n${await excerpt(exit.logFile)}`,
          );
        }
        if (await check()) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await sleep(POLL_MS);
      }
    };
    const launch = async (name: ComponentName): Promise<void> => {
      const p = plan(name);
      await supervisor.start(name, p.binary, p.args, logFiles[name]);
    };
    const healthy = (name: ComponentName): Promise<void> => {
      const { url, tls } = plan(name).health;
      return waitUntil(`${name} health (${url}, log ${logFiles[name]})`, () =>
        probeHealth(url, tls, connection),
      );
    };

    log(`starting in ${dir}`);
    await launch('etcd');
    await healthy('etcd');
    await launch('kube-apiserver');
    await healthy('kube-apiserver');

    const client = new KubeHttpClient(connection);
    try {
      const version = await client.get<{ gitVersion?: string }>('/version');
      const kubeletVersion = version.body.gitVersion ?? 'v0.0.0';
      await writeFile(
        layout.kwokConfigFile,
        renderKwokConfig(kwokStages({ ...DEFAULT_STAGE_OPTIONS, ...options.stages, kubeletVersion })),
      );
      for (const name of ['kube-controller-manager', 'kube-scheduler', 'kwok'] as const) await launch(name);
      await Promise.all((['kube-controller-manager', 'kube-scheduler', 'kwok'] as const).map(healthy));
      // ServiceAccount admission rejects Pods until the token controller made this one.
      await waitUntil(
        'the default ServiceAccount',
        async () => (await client.get('/api/v1/namespaces/default/serviceaccounts/default')).status === 200,
      );
    } finally {
      client.close();
    }
    const startupMs = Date.now() - startedAt;
    log(`ready in ${(startupMs / 1000).toFixed(1)}s: ${server} (KUBECONFIG=${kubeconfigPath})`);

    let stopped: Promise<void> | undefined;
    return {
      kubeconfigPath,
      server,
      connection,
      dir,
      logFiles,
      startupMs,
      stop() {
        stopped ??= (async () => {
          await supervisor.stop();
          detach();
          await rm(etcdDataDir, { recursive: true, force: true });
          if (options.keepDir) await rm(join(dir, PID_RECORD_FILE), { force: true });
          else await rm(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (error) {
    await supervisor.stop(2_000);
    detach();
    await rm(etcdDataDir, { recursive: true, force: true });
    // Keep the logs; without a pid record the next sweep leaves this directory alone.
    await rm(join(dir, PID_RECORD_FILE), { force: true });
    const logs = COMPONENTS.map((c) => `  ${logFiles[c]}`).join('\n');
    throw new Error(`cluster start failed: ${(error as Error).message}\nlogs:\n${logs}`, { cause: error });
  }
}
