import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { nodePoolSchema } from '../v1/nodepool.js';
import { convertManifests } from './convert-manifests.js';
import { type Converter, KubeletHandOffTopic } from './converter.js';
import { createNodePoolV1beta1Converter, nodePoolV1beta1Converter } from './nodepool-v1beta1.js';

type Json = Record<string, unknown>;

/** A v1beta1 NodePool after the NodePool example in Karpenter's v1beta1 documentation. */
function docsNodePool(): Json {
  return {
    apiVersion: 'karpenter.sh/v1beta1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        metadata: { labels: { 'billing-team': 'my-team' }, annotations: { 'example.com/owner': 'my-team' } },
        spec: {
          nodeClassRef: { apiVersion: 'karpenter.k8s.aws/v1beta1', kind: 'EC2NodeClass', name: 'default' },
          taints: [{ key: 'example.com/special-taint', effect: 'NoSchedule' }],
          startupTaints: [{ key: 'example.com/another-taint', effect: 'NoSchedule' }],
          requirements: [
            {
              key: 'karpenter.k8s.aws/instance-category',
              operator: 'In',
              values: ['c', 'm', 'r'],
              minValues: 2,
            },
            { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['2'] },
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
          ],
          kubelet: {
            clusterDNS: ['10.0.1.100'],
            systemReserved: { cpu: '100m', memory: '100Mi', 'ephemeral-storage': '1Gi' },
            evictionHard: { 'memory.available': '5%' },
            imageGCHighThresholdPercent: 85,
            imageGCLowThresholdPercent: 80,
            maxPods: 20,
          },
        },
      },
      disruption: {
        consolidationPolicy: 'WhenUnderutilized',
        expireAfter: '720h',
        budgets: [{ nodes: '10%' }, { schedule: '0 9 * * mon-fri', duration: '8h', nodes: '0' }],
      },
      limits: { cpu: '1000', memory: '1000Gi' },
      weight: 10,
    },
  };
}

/** Records kubelet hand-offs addressed to EC2NodeClasses. */
function kubeletRecorder() {
  const got: Array<{ target: string; values: unknown[]; from: string[] }> = [];
  const converter: Converter = {
    from: { apiVersion: 'never/v0', kind: 'Never' },
    convert: (obj) => obj,
    receives: {
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      topics: [KubeletHandOffTopic],
      receive(obj, _topic, deliveries, ctx) {
        got.push({
          target: ctx.object,
          values: deliveries.map((d) => d.value),
          from: deliveries.map((d) => d.from),
        });
        return obj;
      },
    },
  };
  return { converter, got };
}

const nodeClass = (name: string, apiVersion = 'karpenter.k8s.aws/v1beta1', kind = 'EC2NodeClass') => ({
  apiVersion,
  kind,
  metadata: { name },
  spec: {},
});

const convertOne = (np: Json, extra: Json[] = [nodeClass('default')]) => {
  const { converter, got } = kubeletRecorder();
  const result = convertManifests([np, ...extra], [nodePoolV1beta1Converter, converter]);
  return { ...result, np: result.objects[0] as Json & { spec: Json }, got };
};

describe('nodePoolV1beta1Converter', () => {
  it('converts the documentation example', () => {
    const input = docsNodePool() as {
      spec: { template: { spec: { requirements: unknown; kubelet: unknown } } };
    };
    const { np, warnings, got } = convertOne(docsNodePool());
    expect(np).toEqual({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'default' },
      spec: {
        template: {
          metadata: {
            labels: { 'billing-team': 'my-team' },
            annotations: { 'example.com/owner': 'my-team' },
          },
          spec: {
            nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
            taints: [{ key: 'example.com/special-taint', effect: 'NoSchedule' }],
            startupTaints: [{ key: 'example.com/another-taint', effect: 'NoSchedule' }],
            requirements: input.spec.template.spec.requirements,
            expireAfter: '720h',
          },
        },
        disruption: {
          consolidationPolicy: 'WhenEmptyOrUnderutilized',
          budgets: [{ nodes: '10%' }, { schedule: '0 9 * * mon-fri', duration: '8h', nodes: '0' }],
          consolidateAfter: '0s',
        },
        limits: { cpu: '1000', memory: '1000Gi' },
        weight: 10,
      },
    });
    expect(warnings).toEqual([]);
    expect(got).toEqual([
      {
        target: 'EC2NodeClass/default',
        values: [input.spec.template.spec.kubelet],
        from: ['NodePool/default'],
      },
    ]);
  });

  it('WhenUnderutilized with consolidateAfter Never becomes 0s, with a warning', () => {
    const np = docsNodePool();
    (np.spec as Json).disruption = { consolidationPolicy: 'WhenUnderutilized', consolidateAfter: 'Never' };
    const { np: out, warnings } = convertOne(np);
    expect(out.spec.disruption).toEqual({
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfter: '0s',
    });
    expect(warnings).toEqual([
      expect.objectContaining({ object: 'NodePool/default', field: 'spec.disruption.consolidateAfter' }),
    ]);
    expect(warnings[0]?.message).toContain('set Never again to stop consolidation');
  });

  it('an absent policy (v1beta1 default WhenUnderutilized) gets consolidateAfter 0s and keeps v1 default policy', () => {
    const np = docsNodePool();
    (np.spec as Json).disruption = { expireAfter: 'Never' };
    const { np: out, warnings } = convertOne(np);
    expect(out.spec.disruption).toEqual({ consolidateAfter: '0s' });
    expect((out.spec.template as Json & { spec: Json }).spec.expireAfter).toBe('Never');
    expect(warnings).toEqual([]);
  });

  it('WhenEmpty keeps its policy and consolidateAfter', () => {
    const np = docsNodePool();
    (np.spec as Json).disruption = {
      consolidationPolicy: 'WhenEmpty',
      consolidateAfter: '30s',
      expireAfter: '24h',
    };
    const { np: out, warnings } = convertOne(np);
    expect(out.spec.disruption).toEqual({ consolidationPolicy: 'WhenEmpty', consolidateAfter: '30s' });
    expect((out.spec.template as Json & { spec: Json }).spec.expireAfter).toBe('24h');
    expect(warnings).toEqual([]);
  });

  it('WhenEmpty without consolidateAfter is reported (v1 requires it)', () => {
    const np = docsNodePool();
    (np.spec as Json).disruption = { consolidationPolicy: 'WhenEmpty' };
    const { warnings } = convertOne(np);
    expect(warnings.map((w) => w.field)).toEqual(['spec.disruption.consolidateAfter']);
  });

  it('an unknown policy is left alone with a warning', () => {
    const np = docsNodePool();
    (np.spec as Json).disruption = { consolidationPolicy: 'Sometimes', consolidateAfter: '1m' };
    const { np: out, warnings } = convertOne(np);
    expect(out.spec.disruption).toEqual({ consolidationPolicy: 'Sometimes', consolidateAfter: '1m' });
    expect(warnings.map((w) => w.field)).toEqual(['spec.disruption.consolidationPolicy']);
  });

  it('leaves a NodePool without disruption without one (v1 defaults mean the same)', () => {
    const np = docsNodePool();
    delete (np.spec as Json).disruption;
    const { np: out } = convertOne(np);
    expect(out.spec).not.toHaveProperty('disruption');
    expect((out.spec.template as Json & { spec: Json }).spec).not.toHaveProperty('expireAfter');
  });

  it('defaults a missing nodeClassRef apiVersion and kind to the default NodeClass, with a warning', () => {
    const np = docsNodePool();
    ((np.spec as Json).template as { spec: Json }).spec.nodeClassRef = { name: 'custom' };
    const { np: out, warnings } = convertOne(np, [nodeClass('custom')]);
    expect((out.spec.template as { spec: Json }).spec.nodeClassRef).toEqual({
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      name: 'custom',
    });
    expect(warnings).toEqual([
      {
        object: 'NodePool/default',
        field: 'spec.template.spec.nodeClassRef',
        message:
          "has no apiVersion or kind; assumed EC2NodeClass in group karpenter.k8s.aws, the default NodeClass, as Karpenter's conversion does",
      },
    ]);
  });

  it('takes the default NodeClass from its options', () => {
    const converter = createNodePoolV1beta1Converter({
      defaultNodeClass: { group: 'karpenter.azure.com', kind: 'AKSNodeClass' },
    });
    const np = docsNodePool();
    ((np.spec as Json).template as { spec: Json }).spec.nodeClassRef = { name: 'aks' };
    const out = convertManifests([np], [converter]).objects[0] as { spec: { template: { spec: Json } } };
    expect(out.spec.template.spec.nodeClassRef).toEqual({
      group: 'karpenter.azure.com',
      kind: 'AKSNodeClass',
      name: 'aks',
    });
  });

  it('a missing nodeClassRef is reported and nothing is handed off', () => {
    const np = docsNodePool();
    delete ((np.spec as Json).template as { spec: Json }).spec.nodeClassRef;
    const { warnings, got } = convertOne(np);
    expect(warnings.map((w) => w.field)).toEqual([
      'spec.template.spec.nodeClassRef',
      'spec.template.spec.kubelet',
    ]);
    expect(warnings[1]?.message).toContain('there is no nodeClassRef to move it to');
    expect(got).toEqual([]);
  });

  it('a malformed nodeClassRef apiVersion is reported', () => {
    const np = docsNodePool();
    ((np.spec as Json).template as { spec: Json }).spec.nodeClassRef = {
      apiVersion: 'a/b/c',
      kind: 'EC2NodeClass',
      name: 'default',
    };
    const { warnings } = convertOne(np);
    // The kubelet then has nowhere to go either: group "a" has no receiver.
    expect(warnings.map((w) => w.field)).toEqual([
      'spec.template.spec.nodeClassRef.apiVersion',
      'spec.template.spec.kubelet',
    ]);
  });

  it('hands off "no kubelet" too, so receivers can detect conflicts', () => {
    const np = docsNodePool();
    delete ((np.spec as Json).template as { spec: Json }).spec.kubelet;
    const { got, warnings } = convertOne(np);
    expect(got).toEqual([
      { target: 'EC2NodeClass/default', values: [undefined], from: ['NodePool/default'] },
    ]);
    expect(warnings).toEqual([]);
  });

  it('warns when the NodeClass is not among the inputs', () => {
    const { warnings, np } = convertOne(docsNodePool(), []);
    expect((np.spec.template as { spec: Json }).spec).not.toHaveProperty('kubelet');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ object: 'NodePool/default', field: 'spec.template.spec.kubelet' });
    expect(warnings[0]?.message).toMatch(
      /^not carried over: EC2NodeClass\/default is not among the inputs;.*"maxPods":20/,
    );
  });

  it('warns that kubelet cannot move to a non-AWS NodeClass', () => {
    const np = docsNodePool();
    ((np.spec as Json).template as { spec: Json }).spec.nodeClassRef = {
      apiVersion: 'karpenter.azure.com/v1beta1',
      kind: 'AKSNodeClass',
      name: 'default',
    };
    const { warnings } = convertOne(np, [
      nodeClass('default', 'karpenter.azure.com/v1beta1', 'AKSNodeClass'),
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.field).toBe('spec.template.spec.kubelet');
    expect(warnings[0]?.message).toContain(
      'no conversion that moves kubelet into AKSNodeClass (karpenter.azure.com)',
    );
  });

  it('drops template resources and removed annotations with warnings', () => {
    const np = docsNodePool();
    const template = (np.spec as Json).template as { metadata: { annotations: Json }; spec: Json };
    template.spec.resources = { requests: { cpu: '1' } };
    template.metadata.annotations['karpenter.sh/do-not-consolidate'] = 'true';
    template.metadata.annotations['karpenter.sh/do-not-evict'] = 'true';
    const { np: out, warnings } = convertOne(np);
    const outTemplate = out.spec.template as { metadata: { annotations: Json }; spec: Json };
    expect(outTemplate.spec).not.toHaveProperty('resources');
    expect(outTemplate.metadata.annotations).toEqual({ 'example.com/owner': 'my-team' });
    expect(warnings.map((w) => w.field)).toEqual([
      'spec.template.spec.resources',
      'spec.template.metadata.annotations["karpenter.sh/do-not-consolidate"]',
      'spec.template.metadata.annotations["karpenter.sh/do-not-evict"]',
    ]);
    expect(warnings[1]?.message).toContain('use karpenter.sh/do-not-disrupt');
  });

  it('rewrites a quantity given to Gt/Lt on a MiB label to the integer it means, with a warning', () => {
    const np = docsNodePool() as { spec: { template: { spec: { requirements: Json[] } } } };
    np.spec.template.spec.requirements = [
      { key: 'karpenter.k8s.aws/instance-memory', operator: 'Gt', values: ['4Gi'] },
      { key: 'karpenter.k8s.aws/instance-memory', operator: 'Lt', values: ['65536'] },
      { key: 'karpenter.k8s.aws/instance-gpu-memory', operator: 'Lt', values: ['1.5Mi'] },
      { key: 'karpenter.k8s.aws/instance-local-nvme', operator: 'Gt', values: ['100Gi'] },
      { key: 'example.com/memory', operator: 'Gt', values: ['4Gi'] },
    ];
    const { np: out, warnings } = convertOne(np as Json);
    const reqs = (out.spec.template as { spec: { requirements: Json[] } }).spec.requirements;
    expect(reqs.map((r) => r.values)).toEqual([['4096'], ['65536'], ['2'], ['100'], ['4Gi']]);
    expect(warnings).toEqual([
      {
        object: 'NodePool/default',
        field: 'spec.template.spec.requirements[0].values[0]',
        message:
          '"4Gi" is a quantity, but karpenter.k8s.aws/instance-memory counts MiB and Gt takes an integer: rewritten to "4096"',
      },
      {
        object: 'NodePool/default',
        field: 'spec.template.spec.requirements[2].values[0]',
        message:
          '"1.5Mi" is a quantity, but karpenter.k8s.aws/instance-gpu-memory counts MiB and Lt takes an integer: rewritten to "2" (rounded up)',
      },
      {
        object: 'NodePool/default',
        field: 'spec.template.spec.requirements[3].values[0]',
        message:
          '"100Gi" is a quantity, but karpenter.k8s.aws/instance-local-nvme counts GiB and Gt takes an integer: rewritten to "100"',
      },
    ]);
    // The label is an integer count, so Gt 4.5Mi means the same as Gt 4.
    const half = docsNodePool() as { spec: { template: { spec: { requirements: Json[] } } } };
    half.spec.template.spec.requirements = [
      { key: 'karpenter.k8s.aws/instance-memory', operator: 'Gt', values: ['4.5Mi'] },
    ];
    const rounded = convertOne(half as Json).np.spec.template as { spec: { requirements: Json[] } };
    expect(rounded.spec.requirements[0]!.values).toEqual(['4']);
    // Only the label outside the table is still refused.
    const issues = nodePoolSchema.safeParse(out).error?.issues.map((i) => i.path.join('.'));
    expect(issues).toEqual(['spec.template.spec.requirements.4.values']);
  });

  it('keeps only status.resources, as upstream', () => {
    const np = { ...docsNodePool(), status: { resources: { cpu: '4' }, conditions: [] } };
    expect(convertOne(np).np.status).toEqual({ resources: { cpu: '4' } });
    const noResources = { ...docsNodePool(), status: { conditions: [] } };
    expect(convertOne(noResources).np).not.toHaveProperty('status');
  });

  it('does not convert v1 NodePools', () => {
    const v1 = { ...docsNodePool(), apiVersion: 'karpenter.sh/v1' };
    const result = convertManifests([v1], [nodePoolV1beta1Converter]);
    expect(result.objects[0]).toBe(v1);
  });
});

describe('converted NodePools pass the v1 schema', () => {
  const errorsOf = (value: unknown) =>
    fieldErrors(nodePoolSchema.safeParse(value).error?.issues ?? []).map((e) => `${e.path}: ${e.message}`);

  it.each([
    ['the documentation example', {}],
    ['WhenEmpty', { consolidationPolicy: 'WhenEmpty', consolidateAfter: '30s', expireAfter: 'Never' }],
    ['WhenUnderutilized with Never', { consolidationPolicy: 'WhenUnderutilized', consolidateAfter: 'Never' }],
    ['no policy', { expireAfter: '24h' }],
  ])('%s', (_name, disruption) => {
    const np = docsNodePool();
    const spec = np.spec as Json;
    if (Object.keys(disruption).length > 0) spec.disruption = disruption;
    const template = spec.template as { metadata: { annotations: Json }; spec: Json };
    template.spec.resources = { requests: { cpu: '1' } };
    template.metadata.annotations['karpenter.sh/do-not-evict'] = 'true';
    const { np: out } = convertOne(np);
    expect(errorsOf(out)).toEqual([]);
  });

  it('without disruption or nodeClassRef apiVersion', () => {
    const np = docsNodePool();
    delete (np.spec as Json).disruption;
    ((np.spec as Json).template as { spec: Json }).spec.nodeClassRef = { name: 'default' };
    expect(errorsOf(convertOne(np).np)).toEqual([]);
  });
});
