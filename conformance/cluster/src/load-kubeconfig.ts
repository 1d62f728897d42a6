import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { type ClusterConnection, connectionFromKubeconfig, kubeconfigBaseDir } from './kubeconfig.js';

const run = promisify(execFile);

/** kubectl's arguments that print a kubeconfig's current context as self-contained JSON. */
export function configViewArgs(path: string): string[] {
  return ['config', 'view', '--raw', '--minify', '-o', 'json', '--kubeconfig', path];
}

/**
 * Reads a kubeconfig file into a connection. JSON files (what startCluster writes) are
 * parsed directly; YAML ones are converted with `kubectl config view --raw -o json`, as this
 * package has no YAML parser, so a user-supplied YAML kubeconfig needs kubectl on PATH.
 */
export async function loadKubeconfig(path: string): Promise<ClusterConnection> {
  const text = await readFile(path, 'utf8');
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    try {
      const { stdout } = await run('kubectl', configViewArgs(path));
      config = JSON.parse(stdout);
    } catch (error) {
      throw new Error(`${path} is not JSON and kubectl could not convert it: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return connectionFromKubeconfig(config, kubeconfigBaseDir(path));
}
