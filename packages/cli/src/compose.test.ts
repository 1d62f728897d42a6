import { readdirSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments, parseDocument } from 'yaml';
import { createCliServices } from './compose.js';
import { main } from './main.js';
import { fakeIo, tempDir } from './testing/fake-io.js';
import { InTreeProviders } from './testing/in-tree-providers.js';

// The real composition: the kinds, CRDs and converters the shipped CLI uses.

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});
afterEach(async () => {
  await remove();
});

async function run(argv: string[], stdin = '') {
  const io = fakeIo(dir, stdin);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

const v1beta1Pool = `apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef:
        apiVersion: karpenter.k8s.aws/v1beta1
        kind: EC2NodeClass
        name: default
      requirements:
        - key: kubernetes.io/arch
          operator: In
          values: ["amd64"]
  disruption:
    consolidationPolicy: WhenUnderutilized
    expireAfter: 720h
`;

describe('createCliServices', () => {
  it('knows the contract kinds at their versions', () => {
    const { registry } = createCliServices(InTreeProviders);
    const known = registry.all().map((d) => `${d.apiVersion} ${d.kind}`);
    expect(known).toEqual(
      expect.arrayContaining([
        'v1 Pod',
        'v1 Node',
        'v1 PersistentVolumeClaim',
        'v1 PersistentVolume',
        'apps/v1 DaemonSet',
        'policy/v1 PodDisruptionBudget',
        'storage.k8s.io/v1 StorageClass',
        'karpenter.sh/v1 NodePool',
        'karpenter.sh/v1 NodeClaim',
        'nodewright.dev/v1alpha1 InstanceTypeCatalog',
        'karpenter.k8s.aws/v1 EC2NodeClass',
        'karpenter.azure.com/v1beta1 AKSNodeClass',
        'karpenter.k8s.gcp/v1alpha1 GCENodeClass',
      ]),
    );
  });

  it('points old NodePool versions at convert', () => {
    const services = createCliServices(InTreeProviders);
    expect(services.unsupportedVersionHint('karpenter.sh/v1beta1', 'NodePool')).toBe(
      'run nodewright convert to upgrade it',
    );
    expect(services.unsupportedVersionHint('karpenter.sh/v1beta2', 'NodePool')).toBe(
      'run nodewright convert for karpenter.sh/v1beta1',
    );
    expect(services.unsupportedVersionHint('karpenter.k8s.aws/v1beta1', 'EC2NodeClass')).toBe(
      'run nodewright convert to upgrade it',
    );
    expect(services.unsupportedVersionHint('v2', 'Pod')).toBeUndefined();
  });
});

const v1beta1NodeClass = `apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: AL2023
  role: KarpenterNodeRole-my-cluster
  subnetSelectorTerms:
    - tags: {karpenter.sh/discovery: my-cluster}
  securityGroupSelectorTerms:
    - tags: {karpenter.sh/discovery: my-cluster}
`;

const examples = fileURLToPath(new URL('../../../examples', import.meta.url));

describe('nodewright with the real kinds', () => {
  it("accepts every example manifest (the v1beta1 ones under convert/ once converted; scenarios/ are in simulate's format, workloads/ are Deployments for schedule --expand-workloads)", async () => {
    const notManifests = new Set(['convert', 'scenarios', 'workloads']);
    const dirs = readdirSync(examples, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !notManifests.has(d.name))
      .flatMap((d) => ['-f', join(examples, d.name)]);
    const { code, out, err } = await run(['validate', '-R', ...dirs]);
    // kubectl/get-all.yaml is `kubectl get all` output: its Services, Deployments, ReplicaSets
    // and Jobs are skipped, one line each, and nothing else may be said.
    const lines = err.split('\n').filter((l) => l !== '');
    expect(lines.filter((l) => !/\/kubectl\/get-all\.yaml: [A-Za-z]+\/\S+: skipped: /.test(l))).toEqual([]);
    expect(lines).toHaveLength(9);
    expect(code).toBe(0);
    expect(out).toMatch(/^OK NodePool\/general-purpose$/m);
    expect(out).toMatch(/^OK EC2NodeClass\/default$/m);
    const converted = await run(['convert', '-f', join(examples, 'convert')]);
    expect(converted.code).toBe(0);
    expect(converted.out).toMatch(/^apiVersion: karpenter.sh\/v1$/m);
  });

  it('converts a quantity on instance-memory Gt to MiB with a warning; every error names its line', async () => {
    const memory = v1beta1Pool.replace(
      '          values: ["amd64"]\n',
      '          values: ["amd64"]\n        - key: karpenter.k8s.aws/instance-memory\n          operator: Gt\n          values: ["4Gi"]\n',
    );
    await writeFile(join(dir, 'memory.yaml'), memory);
    const ok = await run(['convert', '-f', 'memory.yaml']);
    expect(ok.err).toBe(
      'memory.yaml: NodePool/default: spec.template.spec.requirements[1].values[0]: "4Gi" is a quantity, but karpenter.k8s.aws/instance-memory counts MiB and Gt takes an integer: rewritten to "4096" (line 18)\n',
    );
    expect(ok.code).toBe(0);
    const pool = parseAllDocuments(ok.out)[0]!.toJS() as {
      spec: { template: { spec: { requirements: unknown[] } } };
    };
    expect(pool.spec.template.spec.requirements[1]).toEqual({
      key: 'karpenter.k8s.aws/instance-memory',
      operator: 'Gt',
      values: ['4096'],
    });

    // A quantity on a label that is not a size stays an error, at its line in the input.
    await writeFile(
      join(dir, 'bad.yaml'),
      memory.replace('karpenter.k8s.aws/instance-memory', 'example.com/ram'),
    );
    const bad = await run(['convert', '-f', 'bad.yaml']);
    expect(bad.code).toBe(1);
    expect(bad.out).toBe('');
    expect(bad.err).toBe(
      'bad.yaml: NodePool/default: spec.template.spec.requirements[1].values: operators Gt, Lt, Gte and Lte need exactly one value, a non-negative integer (line 18)\n',
    );
  });

  it('reports an AKSNodeClass schema error at its field path and line', async () => {
    const nodeClass = [
      'apiVersion: karpenter.azure.com/v1beta1',
      'kind: AKSNodeClass',
      'metadata: {name: default}',
      'spec:',
      '  imageFamily: Ubuntu2404',
      '  osDiskSizeGB: 16',
    ].join('\n');
    await writeFile(join(dir, 'aks.yaml'), nodeClass);
    const { code, err } = await run(['validate', '-f', 'aks.yaml']);
    expect(code).toBe(1);
    expect(err).toMatch(
      /^aks\.yaml: AKSNodeClass\/default: spec\.osDiskSizeGB: must be at least 30 \(line 6\)$/m,
    );
  });

  it('reports a NodePool schema error at its field path and line', async () => {
    const pool = [
      'apiVersion: karpenter.sh/v1',
      'kind: NodePool',
      'metadata: {name: default}',
      'spec:',
      '  template:',
      '    spec:',
      '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}',
      '      requirements:',
      '        - {key: kubernetes.io/arch, operator: In, values: [amd64]}',
      '        - {key: karpenter.sh/capacity-type, operator: Bogus, values: [spot]}',
    ].join('\n');
    await writeFile(join(dir, 'pools.yaml'), pool);
    const { code, err } = await run(['validate', '-f', 'pools.yaml']);
    expect(code).toBe(1);
    expect(err).toMatch(
      /^pools\.yaml: NodePool\/default: spec\.template\.spec\.requirements\[1\]\.operator: .+ \(line 10\)$/m,
    );
  });

  it('tells v1beta1 users to convert, and v1beta2 users which version convert reads', async () => {
    await writeFile(join(dir, 'old.yaml'), `${v1beta1Pool}---\n${v1beta1Pool.replace('v1beta1', 'v1beta2')}`);
    const { code, err } = await run(['validate', '-f', 'old.yaml']);
    expect(code).toBe(1);
    expect(err.split('\n').filter(Boolean)).toEqual([
      'old.yaml: NodePool/default: apiVersion: NodePool apiVersion karpenter.sh/v1beta1 is not supported (known: karpenter.sh/v1); run nodewright convert to upgrade it (line 1)',
      'old.yaml: NodePool/default: apiVersion: NodePool apiVersion karpenter.sh/v1beta2 is not supported (known: karpenter.sh/v1); run nodewright convert for karpenter.sh/v1beta1 (line 20)',
    ]);
  });

  it('converts a v1beta1 NodePool into one that validates', async () => {
    await writeFile(join(dir, 'old.yaml'), v1beta1Pool);
    const converted = await run(['convert', '-f', 'old.yaml']);
    expect(converted.code).toBe(0);
    const pool = parseDocument(converted.out).toJS() as {
      apiVersion: string;
      spec: { template: { spec: { expireAfter?: string } }; disruption: { consolidationPolicy: string } };
    };
    expect(pool.apiVersion).toBe('karpenter.sh/v1');
    expect(pool.spec.disruption.consolidationPolicy).toBe('WhenEmptyOrUnderutilized');
    expect(pool.spec.template.spec.expireAfter).toBe('720h');
    const validated = await run(['validate', '-f', '-'], converted.out);
    expect(validated).toEqual({ code: 0, out: 'OK NodePool/default\n', err: '' });
  });

  it('converts a v1beta1 NodePool and EC2NodeClass together, moving the kubelet onto the class', async () => {
    const withKubelet = v1beta1Pool.replace(
      '      requirements:',
      '      kubelet:\n        maxPods: 110\n      requirements:',
    );
    await writeFile(join(dir, 'pool.yaml'), withKubelet);
    await writeFile(join(dir, 'class.yaml'), v1beta1NodeClass);
    const converted = await run(['convert', '-f', 'pool.yaml', '-f', 'class.yaml']);
    expect(converted.code).toBe(0);
    const [pool, nodeClass] = parseAllDocuments(converted.out).map((d) => d.toJS()) as Array<{
      apiVersion: string;
      kind: string;
      spec: Record<string, unknown> & { template?: { spec: Record<string, unknown> } };
    }>;
    expect(pool?.apiVersion).toBe('karpenter.sh/v1');
    expect(pool?.spec.template?.spec.kubelet).toBeUndefined();
    expect(nodeClass).toMatchObject({ apiVersion: 'karpenter.k8s.aws/v1', kind: 'EC2NodeClass' });
    expect(nodeClass?.spec.kubelet).toMatchObject({ maxPods: 110 });
    const validated = await run(['validate', '-f', '-'], converted.out);
    expect(validated).toEqual({ code: 0, out: 'OK NodePool/default\nOK EC2NodeClass/default\n', err: '' });
  });

  it('prints conversion warnings naming the file, object, field and line', async () => {
    const withKubelet = v1beta1Pool.replace(
      '      requirements:',
      '      kubelet:\n        maxPods: 110\n      requirements:',
    );
    await writeFile(join(dir, 'old.yaml'), withKubelet);
    const { code, err } = await run(['convert', '-f', 'old.yaml']);
    expect(code).toBe(0);
    expect(err).toMatch(/^old\.yaml: NodePool\/default: spec\.template\.spec\.kubelet: .+ \(line 12\)\n$/);
  });

  it('writes the NodePool and NodeClaim CRDs with crds --out', async () => {
    const { code, out } = await run(['crds', '--out', 'crds']);
    expect(code).toBe(0);
    const files = await readdir(join(dir, 'crds'));
    expect(files).toEqual(
      expect.arrayContaining(['karpenter.sh_nodepools.yaml', 'karpenter.sh_nodeclaims.yaml']),
    );
    expect(out.trimEnd().split('\n').sort()).toEqual(files.map((f) => join('crds', f)).sort());
    const crd = parseAllDocuments(await readFile(join(dir, 'crds', 'karpenter.sh_nodepools.yaml'), 'utf8'))
      .map((d) => d.toJS())
      .filter(Boolean);
    expect(crd).toHaveLength(1);
    expect(crd[0]).toMatchObject({
      kind: 'CustomResourceDefinition',
      metadata: { name: 'nodepools.karpenter.sh' },
    });
  });

  it('prints the same CRDs as one stream', async () => {
    const { code, out } = await run(['crds']);
    expect(code).toBe(0);
    const docs = parseAllDocuments(out).map((d) => d.toJS() as { kind: string; metadata: { name: string } });
    expect(docs.every((d) => d?.kind === 'CustomResourceDefinition')).toBe(true);
    expect(docs.map((d) => d.metadata.name)).toEqual(
      expect.arrayContaining([
        'nodepools.karpenter.sh',
        'nodeclaims.karpenter.sh',
        'ec2nodeclasses.karpenter.k8s.aws',
        'gcenodeclasses.karpenter.k8s.gcp',
      ]),
    );
  });
});
