import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DocumentedCommand, documentedCommands } from './documented-commands.js';

// Every `nodewright` command the README and the examples' READMEs tell a user to run is run
// here, from the repository root, with the built CLI, and held to what the text around it
// says it shows. A command the docs gain without an expectation below fails the suite, so
// the docs cannot drift from the program unnoticed.
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
const docs = [
  'README.md',
  ...readdirSync(join(root, 'examples'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'examples', d.name, 'README.md')))
    .map((d) => `examples/${d.name}/README.md`),
];
const scratch = mkdtempSync(join(tmpdir(), 'nodewright-readme-'));
// The controller lines must meet no kubeconfig of the machine running the tests.
const home = mkdtempSync(join(tmpdir(), 'nodewright-readme-home-'));

interface Run {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

function run(args: readonly string[], stdin?: string): Run {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run pnpm build first`);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.KUBECONFIG;
  delete env.KUBERNETES_SERVICE_HOST;
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    env,
    ...(stdin === undefined ? {} : { input: readFileSync(join(root, stdin), 'utf8') }),
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** What running a documented command must show, keyed by the command as the docs spell it. */
const expectations: Record<string, (r: Run, c: DocumentedCommand) => void> = {
  'simulate examples/scenarios/diurnal-web.yaml': (r) => {
    expect(r.code).toBe(0);
    // "prints nodes launched and terminated, cost, utilisation, pod pending times and disruptions by reason"
    for (const word of ['launched', 'terminated', 'cost', 'utili', 'pending', 'disruptions']) {
      expect(r.out.toLowerCase()).toContain(word);
    }
  },
  'validate -f examples/nodepools/aws': (r) => {
    expect(r.code).toBe(0);
    expect(r.out).toContain('OK NodePool/general-purpose');
    expect(r.out).toContain('OK EC2NodeClass/');
    expect(r.err).toBe('');
  },
  'convert -f examples/convert': (r) => {
    // "v1beta1 -> v1, warnings on stderr"; the contract adds: the output passes validate.
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^apiVersion: karpenter\.sh\/v1$/m);
    expect(r.out).not.toContain('v1beta1');
    const validated = spawnSync(process.execPath, [bin, 'validate', '-f', '-'], {
      cwd: root,
      input: r.out,
      encoding: 'utf8',
    });
    expect(validated.stderr).toBe('');
    expect(validated.status).toBe(0);
  },
  'crds --out crds/': (r, c) => {
    // "then: kubectl apply --server-side -f crds/": one YAML file per CRD.
    expect(r.code).toBe(0);
    const written = readdirSync(c.outDir ?? '');
    expect(written).toEqual(
      expect.arrayContaining(['karpenter.sh_nodepools.yaml', 'karpenter.sh_nodeclaims.yaml']),
    );
  },
  'schedule -f examples/schedule --catalog kwok': (r) => expectScheduleExample(r),
  'schedule -f examples/workloads/chart.yaml -f examples/nodepools/aws/general-purpose.yaml --catalog aws --expand-workloads':
    (r) => {
      // The README says stderr counts each workload's pods and names what was skipped.
      expect(r.code).toBe(0);
      expect(r.err).toContain('Deployment/web: expanded into 6 pending pods (replicas 6)');
      expect(r.err).toContain('StatefulSet/redis: expanded into 3 pending pods (replicas 3)');
      expect(r.err).toContain('CronJob/nightly-report: expanded into 2 pending pods (parallelism 2)');
      expect(r.err).toContain('Service/web: skipped');
      expect(r.out).toMatch(/Summary: 11 pending pods, 11 scheduled .*0 unschedulable/);
      expect(r.out).toMatch(/Price: \$\d+\.\d{4}\/h for the new NodeClaims/);
    },
  'schedule -f examples/schedule --catalog kwok -o json': (r) => expectScheduleExampleJson(r),
  'schedule -f - -f examples/nodepools/aws/general-purpose.yaml --catalog aws --expand-workloads': (r, c) => {
    // The Helm render on stdin: "the Deployment's four replicas and one report pod ... the test
    // pod, a Helm hook, is left out", every Service, ConfigMap and the like skipped in a line.
    expect(c.stdin).toBe('examples/workloads/helm-template.yaml');
    expect(r.code).toBe(0);
    expect(r.err).toContain('<stdin>: Deployment/shop: expanded into 4 pending pods (replicas 4)');
    expect(r.err).toContain(
      '<stdin>: CronJob/shop-daily-report: expanded into 1 pending pod (parallelism 1)',
    );
    expect(r.err).toMatch(/^<stdin>: Pod\/shop-test-connection: skipped: a Helm hook/m);
    expect(r.err).toMatch(/^<stdin>: Service\/shop: skipped: /m);
    expect(r.out).toMatch(/Summary: 5 pending pods, 5 scheduled .*0 unschedulable/);
  },
  'schedule -f examples/kubectl/cluster.yaml --catalog aws': (r) => {
    // "places the four pending pods on one new NodeClaim from default ... the finished pod as ignored"
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^NodeClaim 1 from NodePool default: 4 pods, \$\d+\.\d{4}\/h$/m);
    expect(r.out).not.toMatch(/^NodeClaim 2 /m);
    expect(r.out).toMatch(/^ {2}shop\/shop-db-migrate-2-\w+: phase Succeeded/m);
    expect(r.out).toMatch(/Summary: 4 pending pods, 4 scheduled .*0 unschedulable/);
    // "A note says the aws-node and kube-proxy pods came without their DaemonSets"
    expect(r.out).toMatch(
      /^Note: pods of DaemonSets kube-system\/aws-node, kube-system\/kube-proxy are in the input but not the DaemonSets/m,
    );
  },
  'schedule -f examples/kubectl/get-all.yaml --catalog aws --expand-workloads': (r) => {
    // "expand into no pods beyond those listed (the finished migration Job into none), so the decision is the same"
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      'Deployment/shop-web: expanded into 0 pending pods (replicas 6, 6 already in the input)',
    );
    expect(r.err).toContain('Job/shop-db-migrate-2: expanded into 0 pending pods (the Job is Complete)');
    expect(r.err).toMatch(/^examples\/kubectl\/get-all\.yaml: Service\/kubernetes: skipped: /m);
    expect(r.out).toMatch(/^NodeClaim 1 from NodePool default: 4 pods, /m);
    expect(r.out).toMatch(/Summary: 4 pending pods, 4 scheduled .*0 unschedulable/);
  },
  'disrupt -f examples/kubectl/cluster.json --catalog aws --now 2026-12-04T09:00:00Z': (r) => {
    // "evaluates only the Karpenter node ... not now, since the four pending pods would have to share its replacement"
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toContain('ip-192-168-141-27.ec2.internal');
    expect(r.out).not.toContain('ip-192-168-12-34.ec2.internal');
    expect(r.out).toContain('the 4 other pods waiting for capacity');
    expect(r.out).toMatch(/Summary: 1 managed node, 0 to disrupt/);
  },
  'schedule -f examples/schedule --catalog aws': (r) => expectScheduleExample(r),
  'disrupt -f examples/disrupt --catalog kwok --now 2024-06-03T14:00:00Z': (r) => expectDisruptExample(r),
  'disrupt -f examples/disrupt --now 2024-06-03T14:00:00Z': (r) => expectDisruptExample(r),
  'disrupt -f examples/disrupt --now 2024-06-03T14:00:00Z -o json': (r) => {
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out) as {
      commands: { method: string; candidates: string[]; savingsPerHour: number }[];
      candidates: { node: string; disruptable: boolean; blockedBy?: string }[];
    };
    // "multi-node consolidation deletes general-a and general-b ... saving $0.384/h"
    expect(result.commands).toHaveLength(1);
    expect(result.commands[0]?.method).toBe('multi-node-consolidation');
    expect([...(result.commands[0]?.candidates ?? [])].sort()).toEqual(['general-a', 'general-b']);
    expect(result.commands[0]?.savingsPerHour).toBeCloseTo(0.384, 6);
    // "The other nodes are listed with why they stay"
    const staying = result.candidates.filter((c) => !c.disruptable);
    expect(staying.map((c) => c.node).sort()).toEqual(['batch-1', 'general-c', 'general-d', 'general-e']);
    for (const c of staying) expect(c.blockedBy ?? '').not.toBe('');
  },
  'disrupt -f examples/disrupt --now 2024-06-03T14:05:00Z': (r) => {
    // "Five minutes later general-e joins the command."
    expect(r.code).toBe(0);
    expect(r.out).toContain('general-e');
  },
  'simulate examples/scenarios/spot-storm.yaml --baseline cluster-autoscaler': (r) => {
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/cluster.autoscaler/i);
    expect(r.out.toLowerCase()).toContain('interruption');
  },
  'controller --provider kwok --kubeconfig ~/.kube/config': (r) => expectControllerRefusesWithoutCluster(r),
  'controller --provider aws --set region=us-east-1 --set interruptionQueue=my-cluster': (r) => {
    // No --kubeconfig: it must name every place it looked, not fail on client-node's empty default.
    expectControllerRefusesWithoutCluster(r);
    expect(r.err).toContain('$KUBECONFIG is unset');
    expect(r.err).toContain('.kube/config does not exist');
    expect(r.err).not.toContain('HTTP protocol');
  },
  'controller --provider azure --set subscriptionId=00000000-0000-0000-0000-000000000000 --set location=eastus --set nodeResourceGroup=MC_rg_cluster_eastus --set kubernetesVersion=1.33.2':
    (r) => {
      expectControllerRefusesWithoutCluster(r);
      expect(r.err).toContain('$KUBECONFIG is unset');
    },
};

function expectScheduleExample(r: Run): void {
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/NodeClaim|nodeclaim/);
}

function expectScheduleExampleJson(r: Run): void {
  expect(r.code).toBe(0);
  const result = JSON.parse(r.out) as {
    unschedulable: { pod: string; reason: string }[];
    existingNodes: { name: string; pods: string[] }[];
  };
  // "a small one that fits on node-a ... and one no instance type can hold"
  expect(result.existingNodes.find((n) => n.name === 'node-a')?.pods.length ?? 0).toBeGreaterThan(0);
  expect(result.unschedulable).toHaveLength(1);
  expect(result.unschedulable[0]?.reason).not.toBe('');
}

function expectDisruptExample(r: Run): void {
  expect(r.code).toBe(0);
  expect(r.out).toContain('general-a');
  expect(r.out).toContain('general-b');
}

function expectControllerRefusesWithoutCluster(r: Run): void {
  // With no kubeconfig and no in-cluster service account the controller must stop at once
  // with exit 1 and say where it looked, not start servers and hang.
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/kubeconfig/i);
}

describe('the commands the README and the examples document', () => {
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  const commands = docs.flatMap((doc) =>
    documentedCommands(doc, readFileSync(join(root, doc), 'utf8'), { scratch, home }),
  );

  it('finds the documented commands', () => {
    expect(commands.length).toBeGreaterThanOrEqual(12);
  });

  for (const command of commands) {
    it(`${command.doc}: ${command.text}`, { timeout: 300_000 }, () => {
      const expectation = expectations[command.text];
      if (expectation === undefined) {
        throw new Error(`${command.doc}:${command.line}: no expectation for "${command.text}": add one here`);
      }
      expectation(run(command.args, command.stdin), command);
    });
  }
});
