import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import {
  ClientNodeCluster,
  defaultKubeConfig,
  kubeConfigFromFile,
  silentLogger,
} from '@nodewright/core/kube';
import { systemErrorReason } from '@nodewright/core/manifests';
import type { LoadedKubeConfig } from '../commands/controller.js';
import { kubeconfigSource } from './cluster-target.js';
import { ClusterAccessError, type ClusterConnector } from './live-cluster.js';

/**
 * The real connector: the kubeconfig kubectl would use (see kubeconfigSource), the context
 * asked for (checked to exist), and core's client-node adapter over it. Only `get` and `list`
 * are handed out.
 */
export const clientNodeConnector: ClusterConnector = async (target) => {
  const homeConfigPath = join(homedir(), '.kube', 'config');
  let source: ReturnType<typeof kubeconfigSource>;
  try {
    source = kubeconfigSource(
      target,
      { kubeconfigEnv: process.env.KUBECONFIG, homeConfigPath, homeConfigExists: existsSync(homeConfigPath) },
      delimiter,
    );
  } catch (error) {
    throw new ClusterAccessError((error as Error).message);
  }
  const where = source.kind === 'file' ? source.path : `$KUBECONFIG (${source.value})`;
  let config: LoadedKubeConfig;
  try {
    config = source.kind === 'file' ? await kubeConfigFromFile(source.path) : await defaultKubeConfig();
  } catch (error) {
    throw new ClusterAccessError(`cannot read the kubeconfig ${where}: ${systemErrorReason(error)}`);
  }
  if (target.context !== undefined) {
    const names = config.contexts.map((c) => c.name);
    if (!names.includes(target.context))
      throw new ClusterAccessError(
        `the kubeconfig ${where} has no context ${target.context} (contexts: ${names.join(', ') || 'none'})`,
      );
    config.setCurrentContext(target.context);
  }
  const server = config.getCurrentCluster()?.server;
  if (server === undefined || server === '')
    throw new ClusterAccessError(
      `the kubeconfig ${where} names no cluster for context ${config.getCurrentContext() || '(none)'}`,
    );
  const port = new ClientNodeCluster({
    kubeConfig: config,
    fieldManager: 'nodewright-why',
    logger: silentLogger,
    clock: new SystemClock(),
    timers: new SystemTimers(),
  });
  return {
    name: config.getCurrentContext(),
    server,
    get: (type, key) => port.get(type, key),
    list: (type, options) => port.list(type, options),
  };
};
