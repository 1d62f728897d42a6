import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What was observed about the local Docker engine. */
export interface DockerFacts {
  /** DOCKER_HOST, when set and not empty. */
  dockerHost?: string;
  /** Well-known engine sockets that exist. */
  socketsFound: readonly string[];
  /**
   * `docker info`: its exit status (null when killed by the timeout), or `missing` when no
   * docker CLI is installed; absent when it was not run (nothing to ask).
   */
  info?: { status: number | null; stderr: string } | 'missing';
}

/** Whether a Docker engine answers, with the reason either way. */
export interface DockerVerdict {
  reachable: boolean;
  reason: string;
}

/**
 * Decides from the facts whether a Docker engine is reachable. Pure.
 * No DOCKER_HOST and no socket: not reachable, without asking the CLI. Otherwise `docker
 * info` decides; when the CLI is missing the socket is trusted, as testcontainers talks to
 * the engine directly (a stale socket then fails loudly in the test, not silently here).
 */
export function dockerVerdict(facts: DockerFacts): DockerVerdict {
  const where = facts.dockerHost ? `DOCKER_HOST=${facts.dockerHost}` : facts.socketsFound.join(', ');
  if (!facts.dockerHost && facts.socketsFound.length === 0) {
    return { reachable: false, reason: 'no Docker engine: DOCKER_HOST is unset and no engine socket exists' };
  }
  if (facts.info === undefined) {
    return { reachable: false, reason: `engine at ${where} was not asked (docker info not run)` };
  }
  if (facts.info === 'missing') {
    return { reachable: true, reason: `engine at ${where}; no docker CLI to confirm, trusting the socket` };
  }
  if (facts.info.status === 0) return { reachable: true, reason: `docker info answered (${where})` };
  const detail = facts.info.stderr.trim().split('\n')[0] ?? '';
  return {
    reachable: false,
    reason:
      facts.info.status === null
        ? `docker info did not answer in time (${where})`
        : `docker info exited ${facts.info.status} (${where})${detail ? `: ${detail}` : ''}`,
  };
}

/** Engine sockets of Docker (system, rootless, Desktop), in the order the CLI would look. */
export function candidateSockets(env: Readonly<Record<string, string | undefined>>, home: string): string[] {
  const sockets = ['/var/run/docker.sock'];
  if (env.XDG_RUNTIME_DIR) sockets.push(join(env.XDG_RUNTIME_DIR, 'docker.sock'));
  sockets.push(join(home, '.docker', 'run', 'docker.sock'));
  return sockets;
}

/**
 * Probes synchronously (usable before vitest collects tests): environment, sockets, then
 * `docker info` with a short timeout.
 */
export function probeDockerEngine(timeoutMs = 10_000): DockerVerdict {
  const dockerHost = process.env.DOCKER_HOST || undefined;
  const socketsFound = candidateSockets(process.env, homedir()).filter((path) => existsSync(path));
  const facts: DockerFacts = { socketsFound, ...(dockerHost ? { dockerHost } : {}) };
  if (dockerHost || socketsFound.length > 0) {
    const run = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
      timeout: timeoutMs,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const code = (run.error as NodeJS.ErrnoException | undefined)?.code;
    facts.info = code === 'ENOENT' ? 'missing' : { status: run.status, stderr: run.stderr ?? '' };
  }
  return dockerVerdict(facts);
}

/**
 * The images of `names` the local engine does not hold (`docker image inspect` fails): what a
 * container start would have to pull. Synchronous, for decisions made before collection.
 */
export function missingLocalImages(names: readonly string[], timeoutMs = 10_000): string[] {
  return names.filter(
    (name) =>
      spawnSync('docker', ['image', 'inspect', '--format', '{{.Id}}', name], {
        timeout: timeoutMs,
        stdio: 'ignore',
      }).status !== 0,
  );
}
