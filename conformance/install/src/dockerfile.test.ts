import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { main } from '@nodewright/cli';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helm.js';

// The Dockerfile's promises that can be read off the file: the base is a build argument
// (users build FROM a public node:24, the tests FROM a local one), the controller's heap flags
// are the ones the CLI documents, the entrypoint is the CLI's bin, the user is the one the
// chart's securityContext names, and the OCI labels are there.
const dockerfile = readFileSync(`${repoRoot}Dockerfile`, 'utf8');
const lines = dockerfile.split('\n').filter((l) => !l.startsWith('#'));
const froms = lines.filter((l) => l.startsWith('FROM '));
const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
const values = readFileSync(`${repoRoot}charts/nodewright/values.yaml`, 'utf8');

async function controllerHelp(): Promise<string> {
  let out = '';
  const code = await main(['controller', '--help'], {
    stdout: { write: (c: string) => (out += c) },
    stderr: { write: () => true },
    stdin: new PassThrough(),
    cwd: repoRoot,
  });
  expect(code).toBe(0);
  return out;
}

describe('Dockerfile', () => {
  it('takes its base image as a build argument, for every stage', () => {
    const firstFrom = lines.findIndex((l) => l.startsWith('FROM '));
    expect(lines.slice(0, firstFrom).some((l) => /^ARG BASE_IMAGE=node:24[-\w.]*$/.test(l))).toBe(true);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^FROM \$\{BASE_IMAGE\}( AS \w+)?$/);
  });

  it("starts node with the controller's heap flags, as `nodewright controller --help` lists them", async () => {
    const help = await controllerHelp();
    const documented = /under the V8 flags ((?:--[\w-]+=\S+?\s*)+),/.exec(help)?.[1]?.trim().split(/\s+/);
    expect(documented?.length).toBeGreaterThan(0);
    expect(entrypoint[0]).toBe('node');
    expect(entrypoint.slice(1, -1)).toEqual(documented);
  });

  it("runs the CLI's bin from the deployed package", () => {
    const cli = JSON.parse(readFileSync(`${repoRoot}packages/cli/package.json`, 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(entrypoint.at(-1)).toBe(`/app/${cli.bin.nodewright!.replace(/^\.\//, '')}`);
    expect(finalStage).toContain('COPY --from=build --chown=0:0 /out /app');
  });

  it("runs as a numeric non-root user, the chart's runAsUser", () => {
    const user = /^USER (\d+):(\d+)$/m.exec(finalStage);
    expect(user).not.toBeNull();
    expect(Number(user![1])).toBeGreaterThan(0);
    expect(values).toContain(`runAsUser: ${user![1]}`);
    expect(values).toContain('readOnlyRootFilesystem: true');
  });

  it("exposes the chart's metrics and health ports and carries the OCI labels", () => {
    const ports = /^ {2}metrics: (\d+)\n {2}health: (\d+)$/m.exec(values);
    expect(finalStage).toContain(`EXPOSE ${ports![1]} ${ports![2]}`);
    for (const label of ['title', 'description', 'version', 'revision', 'licenses', 'source']) {
      expect(finalStage).toContain(`org.opencontainers.image.${label}=`);
    }
  });
});
