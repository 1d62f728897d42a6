import { join } from 'node:path';
import type { ControllerLauncher, ControllerLauncherFactory } from './controller-launcher.js';
import { ControllerProcess } from './controller-process.js';

/** How the suite runs the controller as child processes. */
export interface ProcessLauncherOptions {
  /** The controller's entry script, run with node. */
  readonly binPath: string;
  /** The argument before the controller's flags; undefined for `controller`, null for none. */
  readonly subcommand?: string | null;
  /** More arguments, e.g. `--provider-module` of an out-of-tree provider. */
  readonly extraArgs?: readonly string[];
}

/**
 * Replicas as child processes of the test on the cluster's admin kubeconfig, their Lease in
 * kube-system, each logging to `<identity>.log` in the e2e work directory and recorded in its
 * pids.json, so a later run stops them if this one was killed outright.
 */
export function processLauncher(options: ProcessLauncherOptions): ControllerLauncherFactory {
  return async ({ env, provider, settings, leaderElectionId }): Promise<ControllerLauncher> => {
    const started: ControllerProcess[] = [];
    return {
      leaseNamespace: 'kube-system',
      async start(identity) {
        const controller = ControllerProcess.start({
          binPath: options.binPath,
          provider,
          kubeconfigPath: env.kubeconfigPath,
          identity,
          leaderElectionId,
          settings,
          ...(options.subcommand === undefined ? {} : { subcommand: options.subcommand }),
          extraArgs: options.extraArgs ?? [],
          logFile: join(env.workDir, `${identity}.log`),
          registry: env.processes,
        });
        started.push(controller);
        return controller;
      },
      async close() {
        await Promise.all(started.map((c) => c.stop()));
      },
    };
  };
}
