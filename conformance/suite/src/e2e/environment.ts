import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ClusterConnection,
  type LaunchedCluster,
  loadKubeconfig,
  PID_RECORD_FILE,
  PidRecordFile,
  type ProcessRegistry,
  procfsProbe,
  type StartTargetOptions,
  startClusterTarget,
  sweepStaleClusters,
} from '@nodewright/conformance/cluster';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import {
  ClientNodeCluster,
  isAlreadyExists,
  kubeConfigFromFile,
  Namespaces,
  silentLogger,
} from '@nodewright/core/kube';
import { e2eClusterTarget } from './cluster-choice.js';

/** Work directories of e2e files start with this; stale ones (owner gone) are swept by it. */
export const E2EWorkDirPrefix = 'nodewright-e2e-';

/** The cluster one e2e file runs against, with a client and a namespace of its own. */
export interface E2EEnvironment {
  readonly kubeconfigPath: string;
  readonly connection: ClusterConnection;
  readonly cluster: ClientNodeCluster;
  /** Created for this file; pods and PDBs go here. */
  readonly namespace: string;
  /** Controller logs and other files of this run. */
  readonly workDir: string;
  /** True when the cluster was supplied (`externalKubeconfig`), not started here. */
  readonly external: boolean;
  /** The kind cluster's name, when this environment started one (the kind target). */
  readonly kindName?: string;
  /**
   * The work directory's pids.json: give it to every process started for this file
   * (`ControllerSpec.registry`), so a later start stops them if this test process was killed.
   */
  readonly processes: ProcessRegistry;
  /** Stops the cluster if this environment started it; removes the work directory. */
  stop(): Promise<void>;
}

export interface E2EEnvironmentOptions {
  /**
   * Use this cluster instead of starting one (the user's NODEWRIGHT_KUBECONFIG, as the
   * globalSetup provides it: `inject('nodewrightCluster')` with `external` true).
   */
  readonly externalKubeconfig?: string;
  /** Names the namespace and work directory. */
  readonly name: string;
  /** Keep the work directory (controller logs) after stop. */
  readonly keep?: boolean;
  /**
   * Flags added to the started binary cluster's components (see StartTargetOptions); a kind or
   * external cluster keeps its own, which is said on stderr.
   */
  readonly componentArgs?: StartTargetOptions['componentArgs'];
  /** Where NODEWRIGHT_CLUSTER is read (see e2eClusterTarget). Default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Starts a cluster of its own (or connects to the supplied one) and creates the file's
 * namespace. Each e2e file has its own cluster because the shared globalSetup cluster serves
 * other test files in parallel, and a controller acts on every pending pod it can see. It is
 * of the target the globalSetup's is (e2eClusterTarget: NODEWRIGHT_CLUSTER, binary by default).
 */
export async function startE2EEnvironment(options: E2EEnvironmentOptions): Promise<E2EEnvironment> {
  const target = e2eClusterTarget(options.externalKubeconfig, options.env ?? process.env);
  process.stderr.write(`[e2e ${options.name}] cluster: ${target.reason}\n`);
  // Controllers of a run that was killed outright (its exit hooks never ran) still act on their
  // cluster: stop them, as startCluster does for control planes.
  await sweepStaleClusters(tmpdir(), procfsProbe, E2EWorkDirPrefix);
  if (options.componentArgs !== undefined && target.kind !== 'binary')
    process.stderr.write(
      `[e2e ${options.name}] component flags not applied (the ${target.kind} cluster keeps its own): ${JSON.stringify(options.componentArgs)}\n`,
    );
  const workDir = await mkdtemp(join(tmpdir(), `${E2EWorkDirPrefix}${options.name}-`));
  const processes = new PidRecordFile(join(workDir, PID_RECORD_FILE), process.pid);
  let handle: LaunchedCluster | undefined;
  let kubeconfigPath: string;
  if (target.kind === 'external') {
    kubeconfigPath = target.kubeconfigPath;
  } else {
    handle = await startClusterTarget(target.kind, {
      ...(options.keep ? { keepDir: true } : {}),
      ...(options.componentArgs === undefined ? {} : { componentArgs: options.componentArgs }),
    });
    kubeconfigPath = handle.kubeconfigPath;
  }
  const connection = handle?.connection ?? (await loadKubeconfig(kubeconfigPath));
  const cluster = new ClientNodeCluster({
    kubeConfig: await kubeConfigFromFile(kubeconfigPath),
    fieldManager: 'nodewright-e2e',
    logger: silentLogger,
    clock: new SystemClock(),
    timers: new SystemTimers(),
  });
  const namespace = `e2e-${options.name}`;
  try {
    await cluster.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  return {
    kubeconfigPath,
    connection,
    cluster,
    namespace,
    workDir,
    external: handle === undefined,
    ...(handle?.kindName === undefined ? {} : { kindName: handle.kindName }),
    processes,
    async stop() {
      cluster.close();
      await handle?.stop();
      // A kept directory loses its record, so no later sweep removes the logs.
      if (options.keep) await rm(processes.path, { force: true });
      else await rm(workDir, { recursive: true, force: true });
    },
  };
}
