import {
  decodeManifests,
  formatManifestError,
  type ParsedManifest,
  parseManifests,
} from '@nodewright/core/manifests';
import { formatResourceList } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import { createCliServices } from '../compose.js';
import { InTreeProviders } from '../testing/in-tree-providers.js';
import { buildSnapshot } from './build-snapshot.js';

/**
 * Parses YAML documents with the CLI's real kinds, failing loudly on any error so a test's
 * fixture mistake is not mistaken for the behaviour under test.
 */
function parseYaml(text: string, file = 'input.yaml'): ParsedManifest[] {
  const decoded = decodeManifests(file, text);
  const { parsed, errors } = parseManifests(createCliServices(InTreeProviders).registry, decoded.manifests);
  const problems = [...decoded.errors, ...errors];
  if (problems.length > 0) throw new Error(`fixture does not parse: ${JSON.stringify(problems)}`);
  return parsed;
}

/** A minimal valid Pod; `spec`, `metadata` and `status` are extra YAML lines for those sections. */
function podYaml(name: string, options: { spec?: string; metadata?: string; status?: string } = {}): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
${options.metadata ?? ''}spec:
  containers:
    - name: app
      image: app
      resources: {requests: {cpu: 500m, memory: 512Mi}}
${options.spec ?? ''}${options.status === undefined ? '' : `status:\n${options.status}`}---
`;
}

const nodePoolYaml = (name: string, spec = '') => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ${name}}
spec:
${spec}  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements:
        - {key: kubernetes.io/os, operator: In, values: [linux]}
---
`;

const catalogYaml = (name: string, types: string[]) => `apiVersion: nodewright.dev/v1alpha1
kind: InstanceTypeCatalog
metadata: {name: ${name}}
instanceTypes:
${types
  .map(
    (t) => `  - name: ${t}
    labels: {kubernetes.io/os: linux, kubernetes.io/arch: amd64}
    capacity: {cpu: "4", memory: 16Gi, pods: "110"}
    offerings:
      - {zone: zone-a, capacityType: on-demand, price: 0.2}
`,
  )
  .join('')}---
`;

const node = (
  name: string,
  extra: { labels?: string; spec?: string; status?: string; metadata?: string } = {},
) => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels: {kubernetes.io/os: linux, topology.kubernetes.io/zone: zone-a${extra.labels ?? ''}}
${extra.metadata ?? ''}spec: {${extra.spec ?? ''}}
status:
  capacity: {cpu: "4", memory: 16Gi, pods: "110"}
  allocatable: {cpu: 3900m, memory: 15Gi, pods: "110"}
${extra.status ?? ''}---
`;

const nodeClaim = (name: string, status: string) => `apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: ${name}
  labels: {karpenter.sh/nodepool: default}
spec:
  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
  requirements:
    - {key: node.kubernetes.io/instance-type, operator: In, values: [t4]}
status:
${status}---
`;

const names = (pods: readonly { metadata: { namespace: string; name: string } }[]) =>
  pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`);

describe('buildSnapshot', () => {
  it('pending pods are the unbound ones; bound pods go onto their node', () => {
    const parsed = parseYaml(
      node('n1') +
        podYaml('web') +
        podYaml('api', { spec: '  nodeName: n1\n' }) +
        podYaml('db', { metadata: '  namespace: data\n' }) +
        catalogYaml('c', ['t4']) +
        nodePoolYaml('default'),
    );
    const { input, ignored, errors } = buildSnapshot(parsed);
    expect(errors).toEqual([]);
    expect(ignored).toEqual([]);
    expect(names(input.pods)).toEqual(['default/web', 'data/db']);
    expect(input.existing.map((e) => [e.name, names(e.pods), e.initialized])).toEqual([
      ['n1', ['default/api'], true],
    ]);
  });

  it('leaves out DaemonSet and Node pods, other schedulers, finished and deleting pods, each with a reason', () => {
    const parsed = parseYaml(
      podYaml('ds-x', {
        metadata: '  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: logs}]\n',
      }) +
        podYaml('static', { metadata: '  ownerReferences: [{apiVersion: v1, kind: Node, name: n9}]\n' }) +
        podYaml('batch', { spec: '  schedulerName: volcano\n' }) +
        podYaml('done', { status: '  phase: Succeeded\n' }) +
        podYaml('going', { metadata: '  deletionTimestamp: "2024-05-01T12:00:00Z"\n' }) +
        podYaml('web'),
    );
    const { input, ignored } = buildSnapshot(parsed);
    expect(names(input.pods)).toEqual(['default/web']);
    expect(ignored).toEqual([
      {
        pod: 'default/ds-x',
        reason: 'owned by DaemonSet default/logs: its requests count as DaemonSet overhead on new nodes',
      },
      { pod: 'default/static', reason: 'a static pod of Node n9: it runs only there' },
      {
        pod: 'default/batch',
        reason: 'schedulerName volcano: only pods of default-scheduler are provisioned for',
      },
      { pod: 'default/done', reason: 'phase Succeeded: a finished pod holds no resources' },
      { pod: 'default/going', reason: 'being deleted: it will not be scheduled' },
    ]);
  });

  it('notes DaemonSets known only by their pods, whose overhead on new nodes is then missing', () => {
    const dsPod = (name: string, ds: string) =>
      podYaml(name, {
        metadata: `  namespace: kube-system\n  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ${ds}, controller: true}]\n`,
      });
    const pods = dsPod('proxy-a', 'kube-proxy') + dsPod('proxy-b', 'kube-proxy') + dsPod('cni-a', 'aws-node');
    expect(buildSnapshot(parseYaml(pods)).notes).toEqual([
      'pods of DaemonSets kube-system/aws-node, kube-system/kube-proxy are in the input but not the DaemonSets: their requests on new nodes are not counted (add daemonsets to the kubectl get)',
    ]);
    const daemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: kube-proxy, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: kube-proxy}}
  template:
    metadata: {labels: {k8s-app: kube-proxy}}
    spec:
      containers: [{name: kube-proxy, image: kube-proxy, resources: {requests: {cpu: 100m}}}]
---
`;
    expect(buildSnapshot(parseYaml(pods + daemonSet)).notes).toEqual([
      'pods of DaemonSet kube-system/aws-node are in the input but not the DaemonSet: their requests on new nodes are not counted (add daemonsets to the kubectl get)',
    ]);
  });

  it('counts a nominated pod on its node, and reports pods bound to unknown nodes', () => {
    const parsed = parseYaml(
      node('n1') +
        podYaml('nominated', { status: '  nominatedNodeName: n1\n' }) +
        podYaml('lost', { spec: '  nodeName: gone\n' }),
    );
    const { input, ignored } = buildSnapshot(parsed);
    expect(input.pods).toEqual([]);
    expect(names(input.existing[0]!.pods)).toEqual(['default/nominated']);
    expect(ignored.map((i) => i.reason)).toEqual([
      'nominated to node n1 by kube-scheduler: counted there',
      'bound to node gone, which is not in the input',
    ]);
  });

  it('pairs NodeClaims with Nodes; a claim without a Node is in-flight and not initialized', () => {
    const parsed = parseYaml(
      node('n1', { labels: ', karpenter.sh/nodepool: default' }) +
        nodeClaim(
          'claim-1',
          '  nodeName: n1\n  conditions: [{type: Initialized, status: "False", lastTransitionTime: "2024-05-01T12:00:00Z"}]\n',
        ) +
        nodeClaim('claim-2', '  capacity: {cpu: "8", memory: 32Gi}\n') +
        podYaml('api', { spec: '  nodeName: n1\n' }),
    );
    const { input } = buildSnapshot(parsed);
    expect(
      input.existing.map((e) => [e.name, e.node?.metadata.name, e.nodeClaim?.metadata.name, e.initialized]),
    ).toEqual([
      ['claim-2', undefined, 'claim-2', false],
      ['n1', 'n1', 'claim-1', false],
    ]);
  });

  it('pairs by provider ID when the claim has no nodeName; the karpenter.sh/initialized label, not the claim condition, initializes', () => {
    const parsed = parseYaml(
      node('n1', { spec: 'providerID: "kwok://n1"' }) +
        nodeClaim(
          'claim-1',
          '  providerID: "kwok://n1"\n  conditions: [{type: Initialized, status: "True", lastTransitionTime: "2024-05-01T12:00:00Z"}]\n',
        ) +
        node('n2', { labels: ', karpenter.sh/initialized: "true"', spec: 'providerID: "kwok://n2"' }) +
        nodeClaim('claim-2', '  providerID: "kwok://n2"\n'),
    );
    const { input } = buildSnapshot(parsed);
    expect(input.existing.map((e) => [e.name, e.nodeClaim?.metadata.name, e.initialized])).toEqual([
      ['n1', 'claim-1', false],
      ['n2', 'claim-2', true],
    ]);
  });

  it('cordoned, disrupted or deleting nodes take no new pods', () => {
    const parsed = parseYaml(
      node('cordoned', { spec: 'unschedulable: true' }) +
        node('disrupted', { spec: 'taints: [{key: karpenter.sh/disrupted, effect: NoSchedule}]' }) +
        node('deleting', { metadata: '  deletionTimestamp: "2024-05-01T12:00:00Z"\n' }) +
        node('fine'),
    );
    const { input } = buildSnapshot(parsed);
    expect(input.existing.map((e) => [e.name, e.markedForDeletion])).toEqual([
      ['cordoned', true],
      ['deleting', true],
      ['disrupted', true],
      ['fine', false],
    ]);
  });

  it("adds up each NodePool's usage from its nodes and in-flight claims, nodes included", () => {
    const parsed = parseYaml(
      node('n1', { labels: ', karpenter.sh/nodepool: default' }) +
        node('n2', { labels: ', karpenter.sh/nodepool: default' }) +
        node('unmanaged') +
        nodeClaim('claim-2', '  capacity: {cpu: "8", memory: 32Gi}\n'),
    );
    const usage = buildSnapshot(parsed).input.nodePoolUsage!;
    expect([...usage.keys()]).toEqual(['default']);
    expect(formatResourceList(usage.get('default')!)).toEqual({
      cpu: '16',
      memory: '64Gi',
      nodes: '3',
      pods: '220',
    });
  });

  it('gives every usable NodePool the types of all catalogs, from -f and --catalog alike', () => {
    const extra = parseYaml(catalogYaml('extra', ['t8']), 'extra.yaml');
    const parsed = parseYaml(
      catalogYaml('c', ['t4']) + nodePoolYaml('a') + nodePoolYaml('b', '  weight: 10\n'),
    );
    const { input, errors } = buildSnapshot(parsed, {
      catalogs: [{ catalog: extra[0]!.value as never, file: 'extra.yaml' }],
    });
    expect(errors).toEqual([]);
    expect(input.nodePools.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect([...input.instanceTypes].map(([pool, types]) => [pool, types.map((t) => t.name)])).toEqual([
      ['a', ['t8', 't4']],
      ['b', ['t8', 't4']],
    ]);
  });

  it('a NodePool without any catalog is an error naming it; static and not-Ready ones are noted and skipped', () => {
    const parsed = parseYaml(
      nodePoolYaml('default') +
        nodePoolYaml('static', '  replicas: 2\n') +
        `${nodePoolYaml('broken').replace('---\n', '')}status:\n  conditions:\n    - {type: Ready, status: "False", reason: NodeClassNotReady, message: x, lastTransitionTime: "2024-05-01T12:00:00Z"}\n---\n`,
      'pools.yaml',
    );
    const { errors, notes } = buildSnapshot(parsed, { knownCatalogs: ['kwok'] });
    expect(errors.map(formatManifestError)).toEqual([
      'pools.yaml: NodePool/default: no instance types: give a catalog with --catalog NAME or FILE, or an InstanceTypeCatalog with -f (catalogs: kwok) (line 1)',
    ]);
    expect(notes).toEqual([
      'NodePool static is not used: it is static (spec.replicas), so it does not provision for pods',
      'NodePool broken is not used: it is not Ready (NodeClassNotReady)',
    ]);
  });

  it('an object given twice is an error', () => {
    const parsed = parseYaml(
      podYaml('web') + podYaml('web') + podYaml('web', { metadata: '  namespace: other\n' }),
    );
    expect(buildSnapshot(parsed).errors.map(formatManifestError)).toEqual([
      'input.yaml: Pod/web: metadata.name: default/web is given twice (first at input.yaml, line 1) (line 11)',
    ]);
  });

  it('reports catalog problems at the catalog file', () => {
    const parsed = parseYaml(catalogYaml('a', ['t4']) + catalogYaml('b', ['t4']), 'types.yaml');
    expect(buildSnapshot(parsed).errors.map(formatManifestError)).toEqual([
      'types.yaml: InstanceTypeCatalog/b: instanceTypes[0].name: instance type t4 is also defined by InstanceTypeCatalog/a (line 15)',
    ]);
  });
});
