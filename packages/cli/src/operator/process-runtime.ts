import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { delimiter } from 'node:path';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { defaultKubeConfig, kubeConfigFromFile } from '@nodewright/core/kube';
import type { ControllerRuntime } from '../commands/controller.js';

/**
 * The real process behind `nodewright controller`: wall-clock time, `$KUBECONFIG`, the host
 * name, and SIGTERM/SIGINT. Only the CLI layer touches process state; core never does.
 */
export function processControllerRuntime(): ControllerRuntime {
  return {
    clock: new SystemClock(),
    timers: new SystemTimers(),
    kubeconfigEnv: () => process.env.KUBECONFIG,
    defaultIdentity: () => `${hostname()}_${randomBytes(4).toString('hex')}`,
    // Without a file, loadFromDefault finds the in-cluster service account in a pod; it also
    // merges a $KUBECONFIG list (a:b), which a single-file load cannot read.
    loadKubeConfig: (path) =>
      path === undefined || (path === process.env.KUBECONFIG && path.includes(delimiter))
        ? defaultKubeConfig()
        : kubeConfigFromFile(path),
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
