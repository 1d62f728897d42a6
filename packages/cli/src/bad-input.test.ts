import { readFileSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCliServices } from './compose.js';
import { main } from './main.js';
import type { CliServices } from './services.js';
import { fakeIo, useTempDir } from './testing/fake-io.js';
import { InTreeProviders } from './testing/in-tree-providers.js';

// Issue 14 item 10: each input below ended in `internal error` and a stack trace, ran for hours,
// or read without end. Each now fails with exit 1 and an error naming the file and the field.

const tempDir = useTempDir();

async function run(argv: string[], options: { stdin?: Readable; services?: () => CliServices } = {}) {
  const dir = tempDir();
  const io = fakeIo(dir);
  const withStdin = options.stdin === undefined ? io : { ...io, stdin: options.stdin };
  const code = await main(argv, withStdin, options.services);
  return { code, out: io.out(), err: io.err() };
}

function expectCleanError(err: string) {
  expect(err).not.toMatch(/internal error|\n\s+at /);
}

const BatchBurst = readFileSync(
  new URL('../../../examples/scenarios/batch-burst.yaml', import.meta.url),
  'utf8',
);

/** The shipped batch-burst scenario cut to 10 minutes, named `small`; `workloads` replaces its workloads. */
function scenario(
  workloads = 'deployments:\n    - { name: web, replicas: 2, pod: { requests: { cpu: 500m, memory: 1Gi } } }',
): string {
  const head = BatchBurst.split('\nworkloads:')[0]!.replace('name: batch-burst', 'name: small');
  return `${head.replace('duration: 6h', 'duration: 10m')}\nworkloads:\n  ${workloads}\n`;
}

/** Nine levels of nine aliases each: 9^7 values from a few hundred bytes. */
const BillionLaughs = `${['a', 'b', 'c', 'd', 'e', 'f', 'g']
  .map((name, i, all) =>
    i === 0
      ? `${name}: &${name} [x, x, x, x, x, x, x, x, x]`
      : `${name}: &${name} [${Array(9)
          .fill(`*${all[i - 1]}`)
          .join(', ')}]`,
  )
  .join('\n')}\nname: laughs\n`;

describe('bad input ends in a clear error, never an internal one', () => {
  it('simulate: a scenario whose YAML aliases expand without bound', async () => {
    await writeFile(join(tempDir(), 'laughs.yaml'), BillionLaughs);
    const { code, err } = await run(['simulate', 'laughs.yaml']);
    expect(code).toBe(1);
    expectCleanError(err);
    expect(err).toMatch(/^laughs\.yaml: YAML aliases \(\*name\) expand past 1000 uses .* \(line 1\)$/m);
  });

  it('validate: a manifest whose YAML aliases expand without bound, the other documents still read', async () => {
    const pool =
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: ok }\nspec: { template: { spec: { nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: d }, requirements: [] } } }\n';
    await writeFile(join(tempDir(), 'pools.yaml'), `${pool}---\n${BillionLaughs}`);
    const { code, out, err } = await run(['validate', '-f', 'pools.yaml']);
    expect(code).toBe(1);
    expectCleanError(err);
    expect(err).toMatch(/^pools\.yaml: YAML aliases \(\*name\) expand past 1000 uses .* \(line 6\)$/m);
    expect(out).toContain('OK NodePool/ok');
  });

  it('simulate --report into a directory that does not exist fails before the run', async () => {
    await writeFile(join(tempDir(), 's.yaml'), scenario());
    const { code, out, err } = await run(['simulate', 's.yaml', '--report', 'missing/r.html']);
    expect(code).toBe(1);
    expectCleanError(err);
    expect(out).toBe('');
    expect(err).toMatch(/^missing\/r\.html: --report: cannot write: .*missing: no such file or directory$/m);
  });

  it('simulate --report naming a directory fails before the run', async () => {
    await writeFile(join(tempDir(), 's.yaml'), scenario());
    const { code, err } = await run(['simulate', 's.yaml', '--report', '.']);
    expect(code).toBe(1);
    expect(err).toMatch(/^\.: --report: cannot write: is a directory$/m);
  });

  it('simulate --report that fails to write after the run still prints the summary', async () => {
    await writeFile(join(tempDir(), 's.yaml'), scenario());
    const services = () => {
      const real = createCliServices(InTreeProviders);
      return {
        ...real,
        fs: {
          ...real.fs,
          writeFile: async () => {
            throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' });
          },
        },
      };
    };
    const { code, out, err } = await run(['simulate', 's.yaml', '--report', 'r.html', '-o', 'json'], {
      services,
    });
    expect(code).toBe(1);
    expectCleanError(err);
    expect(JSON.parse(out).summary.nodes.launched).toBeGreaterThan(0);
    expect(err).toMatch(
      /^r\.html: --report: cannot write: no space left on device; the summary is on standard output$/m,
    );
  });

  it.each([
    [
      'a deployment of 100,000,000 replicas',
      scenario('deployments:\n    - { name: web, replicas: 100000000, pod: { requests: { cpu: 1 } } }'),
      /Scenario\/small: workloads\.deployments\[0]\.replicas: .*at most 100000/,
    ],
    [
      'a job of 10^9 pods',
      scenario(
        'jobs:\n    - { name: j, count: 1000000000, arriveAt: 0, runFor: 1m, pod: { requests: { cpu: 1 } } }',
      ),
      /workloads\.jobs\[0]\.count: .*at most 100000/,
    ],
    [
      'pods at once past the limit across workloads',
      scenario(
        `deployments:\n${[1, 2, 3].map((i) => `    - { name: w${i}, replicas: 40000, pod: { requests: { cpu: 1 } } }`).join('\n')}`,
      ),
      /Scenario\/small: workloads: may run 120000 pods at once.*limit is 100000/,
    ],
    [
      'a 100,000-hour duration',
      scenario().replace('duration: 10m', 'duration: 100000h'),
      /Scenario\/small: duration: must be at most 744h/,
    ],
    [
      'a diurnal curve updated every second',
      scenario(
        'deployments:\n    - { name: web, replicas: { diurnal: { min: 1, max: 2, every: 1s } }, pod: { requests: { cpu: 1 } } }',
      ),
      /workloads\.deployments\[0]\.replicas\.diurnal\.every: must be at least 10s/,
    ],
  ])('simulate: %s is refused at once, naming the field', async (_what, text, expected) => {
    await writeFile(join(tempDir(), 's.yaml'), text);
    const { code, err } = await run(['simulate', 's.yaml']);
    expect(code).toBe(1);
    expectCleanError(err);
    expect(err).toMatch(expected);
    expect(err).toMatch(/^s\.yaml: /m);
  });

  it('convert: a selector map whose combinations would be millions of terms', async () => {
    const values = Array.from({ length: 20 }, (_, i) => `v${i}`).join(',');
    const tags = Array.from({ length: 8 }, (_, i) => `    k${i}: "${values}"`).join('\n');
    await writeFile(
      join(tempDir(), 'nc.yaml'),
      `apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata:\n  name: default\nspec:\n  amiFamily: AL2023\n  role: r\n  subnetSelector:\n${tags}\n  securityGroupSelectorTerms:\n    - tags: { a: b }\n`,
    );
    const { err } = await run(['convert', '-f', 'nc.yaml']);
    expectCleanError(err);
    expect(err).toMatch(
      /nc\.yaml: EC2NodeClass\/default: spec\.subnetSelector: .*not carried over: every combination .* more than v1's limit of 30/,
    );
  });

  it.each([
    ['convert', ['convert', '-f', 'deep.json']],
    ['validate', ['validate', '-f', 'deep.json']],
  ])('%s: an object nested 20,000 levels deep', async (_command, argv) => {
    const pool = {
      apiVersion: 'karpenter.sh/v1beta1',
      kind: 'NodePool',
      metadata: { name: 'p' },
      spec: { template: { metadata: { labels: { a: 'x' } }, spec: { nodeClassRef: { name: 'd' } } } },
    };
    // JSON.stringify recurses too: write the text around the nesting by hand.
    const text = JSON.stringify(pool).replace(
      '"labels":{"a":"x"}',
      `"labels":${'{"a":'.repeat(20_000)}"x"${'}'.repeat(20_000)}`,
    );
    await writeFile(join(tempDir(), 'deep.json'), text);
    const { code, err } = await run(argv);
    expect(code).toBe(1);
    expectCleanError(err);
    expect(err).toMatch(
      /^deep\.json: NodePool\/p: spec\.template\.metadata\.labels\.a\.a\.\.\.: nested more than 100 levels deep \(line 1\)$/m,
    );
  });

  it('validate -R: a symbolic link loop is followed once, each file read once', async () => {
    await mkdir(join(tempDir(), 'pools', 'nested'), { recursive: true });
    await writeFile(
      join(tempDir(), 'pools', 'pool.yaml'),
      await readFile(new URL('../../../examples/schedule/nodepools.yaml', import.meta.url), 'utf8'),
    );
    await symlink('..', join(tempDir(), 'pools', 'nested', 'up'));
    await symlink('self', join(tempDir(), 'pools', 'self'));
    const { code, out, err } = await run(['validate', '-R', '-f', 'pools']);
    expectCleanError(err);
    expect(code).toBe(0);
    expect(
      out
        .split('\n')
        .filter((l) => l.startsWith('OK '))
        .sort(),
    ).toEqual(['OK NodePool/critical', 'OK NodePool/default']);
  });

  it('validate -f -: endless standard input stops at the limit with an error', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    let sent = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          sent += chunk.length;
          yield chunk;
        }
      })(),
    );
    const { code, err } = await run(['validate', '-f', '-'], { stdin: endless });
    expect(code).toBe(1);
    expectCleanError(err);
    expect(err).toMatch(
      /^<stdin>: cannot read: more than 64 MiB on standard input; nodewright reads at most 64 MiB from it$/m,
    );
    expect(sent).toBeLessThan(80 * 1024 * 1024);
  });
});
