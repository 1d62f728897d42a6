import { describe, expect, it } from 'vitest';
import { candidateSockets, dockerVerdict } from './docker-probe.js';

describe('dockerVerdict', () => {
  it('is unreachable without DOCKER_HOST or a socket, whatever else is known', () => {
    const verdict = dockerVerdict({ socketsFound: [] });
    expect(verdict.reachable).toBe(false);
    expect(verdict.reason).toContain('DOCKER_HOST is unset and no engine socket exists');
  });

  it('is reachable when docker info succeeds against the engine found', () => {
    const verdict = dockerVerdict({
      socketsFound: ['/var/run/docker.sock'],
      info: { status: 0, stderr: '' },
    });
    expect(verdict).toEqual({ reachable: true, reason: 'docker info answered (/var/run/docker.sock)' });
  });

  it('is unreachable when docker info fails, quoting its first error line', () => {
    const verdict = dockerVerdict({
      dockerHost: 'tcp://10.0.0.1:2375',
      socketsFound: [],
      info: { status: 1, stderr: 'Cannot connect to the Docker daemon at tcp://10.0.0.1:2375.\nmore\n' },
    });
    expect(verdict.reachable).toBe(false);
    expect(verdict.reason).toBe(
      'docker info exited 1 (DOCKER_HOST=tcp://10.0.0.1:2375): Cannot connect to the Docker daemon at tcp://10.0.0.1:2375.',
    );
  });

  it('is unreachable when docker info times out', () => {
    const verdict = dockerVerdict({ socketsFound: ['/s'], info: { status: null, stderr: '' } });
    expect(verdict).toEqual({ reachable: false, reason: 'docker info did not answer in time (/s)' });
  });

  it('trusts an existing socket when no docker CLI is installed', () => {
    const verdict = dockerVerdict({ socketsFound: ['/s'], info: 'missing' });
    expect(verdict.reachable).toBe(true);
    expect(verdict.reason).toContain('no docker CLI');
  });

  it('does not claim an engine it never asked about', () => {
    expect(dockerVerdict({ socketsFound: ['/s'] }).reachable).toBe(false);
  });
});

describe('candidateSockets', () => {
  it('lists the system, rootless and Desktop sockets', () => {
    expect(candidateSockets({ XDG_RUNTIME_DIR: '/run/user/1000' }, '/home/u')).toEqual([
      '/var/run/docker.sock',
      '/run/user/1000/docker.sock',
      '/home/u/.docker/run/docker.sock',
    ]);
    expect(candidateSockets({}, '/home/u')).toEqual([
      '/var/run/docker.sock',
      '/home/u/.docker/run/docker.sock',
    ]);
  });
});
