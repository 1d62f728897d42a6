import { GenericContainer, type StartedTestContainer } from 'testcontainers';
import { repoRoot, runCommand } from './helm.js';

/**
 * Makes a Docker engine answer (deploy/image/ensure-docker.sh: installs and starts one where
 * there is none), then builds the repository's Dockerfile FROM a locally made Node 24 base
 * unless an image of the same sources exists (deploy/image/build-image.sh), and resolves to
 * the image's name. Both print their progress to this process's stderr; a cold build takes
 * minutes.
 */
export async function ensureControllerImage(): Promise<string> {
  for (const script of ['ensure-docker.sh', 'build-image.sh']) {
    const path = `${repoRoot}deploy/image/${script}`;
    const result = await runCommand('bash', [path]);
    if (result.code !== 0)
      throw new Error(`${path} failed (exit ${result.code}): ${result.stderr.slice(-2000)}`);
    if (script === 'build-image.sh') {
      const image = result.stdout.trim().split('\n').at(-1) ?? '';
      if (image === '') throw new Error(`${path} printed no image name`);
      return image;
    }
  }
  throw new Error('unreachable');
}

/**
 * A container run as the chart's Pod runs the controller: read-only root filesystem, every
 * capability dropped, no privilege escalation, the image's own (non-root) user. testcontainers
 * has no builder method for a read-only root, so the host config is set here.
 */
export class LockedDownContainer extends GenericContainer {
  constructor(image: string) {
    super(image);
    this.hostConfig.ReadonlyRootfs = true;
    this.withDroppedCapabilities('ALL').withSecurityOpt('no-new-privileges');
  }
}

/** Everything the container has written to stdout and stderr so far. */
export async function containerOutput(container: StartedTestContainer): Promise<string> {
  const stream = await container.logs();
  return new Promise((resolve, reject) => {
    let text = '';
    stream.on('data', (chunk: Buffer | string) => {
      text += chunk.toString();
    });
    stream.once('error', reject);
    stream.once('end', () => resolve(text));
  });
}
