import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { delimiter, join } from 'node:path';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { defaultKubeConfig, kubeConfigFromFile } from '@nodewright/core/kube';
import type { ControllerRuntime } from '../commands/controller.js';
import { missingKubeConfigReason, ServiceAccountTokenPath } from './kubeconfig-sources.js';

/**
 * The real process behind `nodewright controller`: wall-clock time, `$KUBECONFIG`, the host
 * name, and SIGTERM/SIGINT. Only the CLI layer touches process state; core never does.
 */
export function processControllerRuntime(): ControllerRuntime {
  return {
    clock: new SystemClock(),
    timers: new SystemTimers(),
    kubeconfigEnv: () => process.env.KUBECONFIG,
    variable: (name) => process.env[name],
    defaultIdentity: () => `${hostname()}_${randomBytes(4).toString('hex')}`,
    // Without a file, loadFromDefault finds the in-cluster service account in a pod; it also
    // merges a $KUBECONFIG list (a:b), which a single-file load cannot read.
    async loadKubeConfig(path) {
      if (path === undefined) {
        const homeConfigPath = join(homedir(), '.kube', 'config');
        const reason = missingKubeConfigReason({
          kubeconfigEnv: process.env.KUBECONFIG,
          homeConfigPath,
          homeConfigExists: existsSync(homeConfigPath),
          serviceHostSet: (process.env.KUBERNETES_SERVICE_HOST ?? '') !== '',
          serviceAccountTokenExists: existsSync(ServiceAccountTokenPath),
        });
        if (reason !== undefined) throw new Error(reason);
        return defaultKubeConfig();
      }
      return path === process.env.KUBECONFIG && path.includes(delimiter)
        ? defaultKubeConfig()
        : kubeConfigFromFile(path);
    },
    onShutdownSignal(handler) {
      const listener = (signal: NodeJS.Signals) => handler(signal);
      process.on('SIGTERM', listener);
      process.on('SIGINT', listener);
      return () => {
        process.off('SIGTERM', listener);
        process.off('SIGINT', listener);
      };
    },
  };
}
