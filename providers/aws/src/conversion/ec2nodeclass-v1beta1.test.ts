import { convertManifests, nodePoolV1beta1Converter } from '@nodewright/core/apis';
import { describe, expect, it } from 'vitest';
import {
  EC2NodeClassCompatibilityAnnotations,
  ec2NodeClassV1beta1Converter,
} from './ec2nodeclass-v1beta1.js';

type Json = Record<string, unknown>;
type NodeClass = Json & { metadata: Json & { annotations?: Json }; spec: Json };

/** A v1beta1 EC2NodeClass after the EC2NodeClass example in Karpenter's v1beta1 documentation. */
function docsNodeClass(spec: Json = {}): Json {
  return {
    apiVersion: 'karpenter.k8s.aws/v1beta1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: {
      amiFamily: 'AL2',
      subnetSelectorTerms: [
        { tags: { 'karpenter.sh/discovery': 'my-cluster', environment: 'test' } },
        { id: 'subnet-09fa4a0a8f233a921' },
      ],
      securityGroupSelectorTerms: [
        { tags: { 'karpenter.sh/discovery': 'my-cluster' } },
        { name: 'my-security-group' },
        { id: 'sg-063d7acfb4b06c82c' },
      ],
      role: 'KarpenterNodeRole-my-cluster',
      instanceStorePolicy: 'RAID0',
      userData: 'echo "Hello world"\n',
      tags: { team: 'team-a', app: 'team-a-app' },
      metadataOptions: {
        httpEndpoint: 'enabled',
        httpProtocolIPv6: 'disabled',
        httpPutResponseHopLimit: 2,
        httpTokens: 'required',
      },
      blockDeviceMappings: [
        { deviceName: '/dev/xvda', ebs: { volumeSize: '100Gi', volumeType: 'gp3', encrypted: true } },
      ],
      detailedMonitoring: true,
      associatePublicIPAddress: true,
      ...spec,
    },
    status: { subnets: [{ id: 'subnet-0a462d98193ff9fac', zone: 'us-east-2b' }] },
  };
}

/** A minimal v1beta1 NodePool referencing an EC2NodeClass, with an optional kubelet. */
function nodePool(name: string, nodeClass: string, kubelet?: Json): Json {
  return {
    apiVersion: 'karpenter.sh/v1beta1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      template: {
        spec: {
          nodeClassRef: { apiVersion: 'karpenter.k8s.aws/v1beta1', kind: 'EC2NodeClass', name: nodeClass },
          requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
          ...(kubelet === undefined ? {} : { kubelet }),
        },
      },
    },
  };
}

const converters = [nodePoolV1beta1Converter, ec2NodeClassV1beta1Converter];
const convert = (...objects: Json[]) => convertManifests(objects, converters);
const convertClass = (nc: Json) => {
  const result = convert(nc);
  return { nc: result.objects[0] as NodeClass, warnings: result.warnings };
};
const fields = (warnings: readonly { field: string }[]) => warnings.map((w) => w.field);

describe('ec2NodeClassV1beta1Converter', () => {
  it('converts the documentation example, keeping amiFamily next to explicit AMI terms', () => {
    const input = docsNodeClass({
      amiSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'my-cluster' } }, { id: 'ami-123' }],
    });
    const { nc, warnings } = convertClass(input);
    expect(nc).toEqual({ ...input, apiVersion: 'karpenter.k8s.aws/v1' });
    expect(warnings).toEqual([]);
  });

  it.each([
    ['AL2', 'al2@latest'],
    ['AL2023', 'al2023@latest'],
    ['Bottlerocket', 'bottlerocket@latest'],
    ['Windows2019', 'windows2019@latest'],
    ['Windows2022', 'windows2022@latest'],
  ])('amiFamily %s without AMI terms becomes alias %s', (family, alias) => {
    const { nc } = convertClass(docsNodeClass({ amiFamily: family }));
    expect(nc.spec).not.toHaveProperty('amiFamily');
    expect(nc.spec.amiSelectorTerms).toEqual([{ alias }]);
  });

  it('an empty AMI term list counts as none', () => {
    const { nc } = convertClass(docsNodeClass({ amiFamily: 'Bottlerocket', amiSelectorTerms: [] }));
    expect(nc.spec.amiSelectorTerms).toEqual([{ alias: 'bottlerocket@latest' }]);
  });

  it('the alias version annotation pins the alias and is removed', () => {
    const input = docsNodeClass({ amiFamily: 'AL2023' });
    (input.metadata as Json).annotations = {
      [EC2NodeClassCompatibilityAnnotations.AliasVersion]: 'v20240807',
    };
    const { nc } = convertClass(input);
    expect(nc.spec.amiSelectorTerms).toEqual([{ alias: 'al2023@v20240807' }]);
    expect(nc.metadata).not.toHaveProperty('annotations');
  });

  it('warns that AL2023 user data is overridden by the generated NodeConfig', () => {
    const { warnings } = convertClass(docsNodeClass({ amiFamily: 'AL2023' }));
    expect(fields(warnings)).toEqual(['spec.userData']);
    expect(warnings[0]?.message).toContain('NodeConfig');
  });

  describe('Ubuntu', () => {
    it("with AMI terms becomes AL2 with Ubuntu's root volume when none is set, recorded in an annotation", () => {
      const input = docsNodeClass({ amiFamily: 'Ubuntu', amiSelectorTerms: [{ id: 'ami-foo' }] });
      delete (input.spec as Json).blockDeviceMappings;
      const { nc, warnings } = convertClass(input);
      expect(nc.spec.amiFamily).toBe('AL2');
      expect(nc.spec.amiSelectorTerms).toEqual([{ id: 'ami-foo' }]);
      expect(nc.spec.blockDeviceMappings).toEqual([
        {
          deviceName: '/dev/sda1',
          rootVolume: true,
          ebs: { encrypted: true, volumeType: 'gp3', volumeSize: '20Gi' },
        },
      ]);
      expect(nc.metadata.annotations).toEqual({
        'compatibility.karpenter.k8s.aws/v1beta1-ubuntu': 'amiFamily,blockDeviceMappings',
      });
      expect(fields(warnings)).toEqual(['spec.amiFamily']);
    });

    it('keeps user block device mappings', () => {
      const { nc } = convertClass(
        docsNodeClass({ amiFamily: 'Ubuntu', amiSelectorTerms: [{ id: 'ami-foo' }] }),
      );
      expect(nc.spec.blockDeviceMappings).toEqual((docsNodeClass().spec as Json).blockDeviceMappings);
      expect(nc.metadata.annotations).toEqual({
        'compatibility.karpenter.k8s.aws/v1beta1-ubuntu': 'amiFamily',
      });
    });

    it('without AMI terms gets a placeholder AMI and is marked incompatible', () => {
      const { nc, warnings } = convertClass(docsNodeClass({ amiFamily: 'Ubuntu' }));
      expect(nc.spec.amiSelectorTerms).toEqual([{ id: 'ami-placeholder' }]);
      expect(nc.metadata.annotations).toEqual({
        'compatibility.karpenter.k8s.aws/v1beta1-ubuntu': 'amiFamily,incompatible',
      });
      expect(fields(warnings)).toEqual(['spec.amiSelectorTerms']);
      expect(warnings[0]?.message).toContain('not ready');
    });
  });

  it('Custom stays Custom, with a warning about the unregistered taint', () => {
    const { nc, warnings } = convertClass(
      docsNodeClass({ amiFamily: 'Custom', amiSelectorTerms: [{ id: 'ami-1' }] }),
    );
    expect(nc.spec.amiFamily).toBe('Custom');
    expect(fields(warnings)).toEqual(['spec.userData']);
    expect(warnings[0]?.message).toContain('karpenter.sh/unregistered:NoExecute');
  });

  it('a missing or unknown family is treated as Custom, and missing terms are reported', () => {
    const missing = docsNodeClass();
    delete (missing.spec as Json).amiFamily;
    const a = convertClass(missing);
    expect(a.nc.spec.amiFamily).toBe('Custom');
    expect(fields(a.warnings)).toEqual(['spec.amiFamily', 'spec.amiSelectorTerms', 'spec.userData']);
    const b = convertClass(docsNodeClass({ amiFamily: 'Ubuntu2204', amiSelectorTerms: [{ id: 'ami-1' }] }));
    expect(b.nc.spec.amiFamily).toBe('Custom');
    expect(b.warnings[0]?.message).toContain('"Ubuntu2204" is not a v1beta1 AMI family');
  });

  it('pins the v1beta1 hop limit where it was only implied', () => {
    const absent = docsNodeClass();
    delete (absent.spec as Json).metadataOptions;
    const a = convertClass(absent);
    expect(a.nc.spec.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: 2,
      httpTokens: 'required',
    });
    expect(fields(a.warnings)).toEqual(['spec.metadataOptions']);
    const partial = convertClass(docsNodeClass({ metadataOptions: { httpTokens: 'optional' } }));
    expect(partial.nc.spec.metadataOptions).toEqual({ httpTokens: 'optional', httpPutResponseHopLimit: 2 });
    expect(fields(partial.warnings)).toEqual(['spec.metadataOptions.httpPutResponseHopLimit']);
  });

  it('drops tags v1 reserves', () => {
    const { nc, warnings } = convertClass(
      docsNodeClass({ tags: { team: 'a', 'eks:eks-cluster-name': 'demo' } }),
    );
    expect(nc.spec.tags).toEqual({ team: 'a' });
    expect(fields(warnings)).toEqual(['spec.tags["eks:eks-cluster-name"]']);
  });

  it('turns v1alpha1 selector maps into terms', () => {
    const input = docsNodeClass({
      subnetSelector: { 'karpenter.sh/discovery': 'demo' },
      securityGroupSelector: { 'aws-ids': 'sg-1,sg-2' },
      amiSelector: { 'aws::ids': 'ami-1', 'aws::owners': 'self' },
      amiFamily: 'Bottlerocket',
    });
    delete (input.spec as Json).subnetSelectorTerms;
    delete (input.spec as Json).securityGroupSelectorTerms;
    const { nc, warnings } = convertClass(input);
    expect(nc.spec.subnetSelectorTerms).toEqual([{ tags: { 'karpenter.sh/discovery': 'demo' } }]);
    expect(nc.spec.securityGroupSelectorTerms).toEqual([{ id: 'sg-1' }, { id: 'sg-2' }]);
    // Explicit AMIs: the family stays, no alias.
    expect(nc.spec.amiSelectorTerms).toEqual([{ id: 'ami-1' }]);
    expect(nc.spec.amiFamily).toBe('Bottlerocket');
    for (const key of ['subnetSelector', 'securityGroupSelector', 'amiSelector'])
      expect(nc.spec).not.toHaveProperty(key);
    expect(warnings).toEqual([
      expect.objectContaining({
        field: 'spec.amiSelector',
        message: expect.stringContaining('dropped aws::owners'),
      }),
    ]);
  });

  it('a selector map next to terms, or not a map of strings, is dropped with a warning', () => {
    const { nc, warnings } = convertClass(
      docsNodeClass({
        subnetSelector: { a: 'b' },
        securityGroupSelector: 'sg-1',
        amiSelectorTerms: [{ id: 'ami-1' }],
      }),
    );
    expect(nc.spec.subnetSelectorTerms).toEqual((docsNodeClass().spec as Json).subnetSelectorTerms);
    expect(fields(warnings)).toEqual(['spec.subnetSelector', 'spec.securityGroupSelector']);
  });

  it('drops launchTemplateName with a warning', () => {
    const { nc, warnings } = convertClass(
      docsNodeClass({ launchTemplateName: 'lt', amiSelectorTerms: [{ id: 'ami-1' }] }),
    );
    expect(nc.spec).not.toHaveProperty('launchTemplateName');
    expect(fields(warnings)).toEqual(['spec.launchTemplateName']);
  });

  it('keeps status as is', () => {
    expect(convertClass(docsNodeClass()).nc.status).toEqual(docsNodeClass().status);
  });
});

describe('kubelet from NodePools', () => {
  const kubelet = { maxPods: 20, systemReserved: { cpu: '100m' } };

  it('moves a NodePool kubelet into the referenced EC2NodeClass, before or after it in the input', () => {
    for (const order of ['pool-first', 'class-first'] as const) {
      const objects = [nodePool('default', 'default', kubelet), docsNodeClass()];
      if (order === 'class-first') objects.reverse();
      const result = convert(...objects);
      const nc = result.objects.find((o) => o.kind === 'EC2NodeClass') as NodeClass;
      const np = result.objects.find((o) => o.kind === 'NodePool') as { spec: { template: { spec: Json } } };
      expect(nc.spec.kubelet).toEqual(kubelet);
      expect(np.spec.template.spec).not.toHaveProperty('kubelet');
      expect(result.warnings).toEqual([]);
    }
  });

  it('moves it into an EC2NodeClass already at v1, without touching the input', () => {
    const v1 = { ...docsNodeClass(), apiVersion: 'karpenter.k8s.aws/v1' };
    const before = structuredClone(v1);
    const result = convert(nodePool('default', 'default', kubelet), v1);
    expect((result.objects[1] as NodeClass).spec.kubelet).toEqual(kubelet);
    expect(v1).toEqual(before);
  });

  it('NodePools with the same kubelet share the EC2NodeClass silently', () => {
    const result = convert(
      nodePool('a', 'default', kubelet),
      nodePool('b', 'default', { systemReserved: { cpu: '100m' }, maxPods: 20 }),
      docsNodeClass(),
    );
    expect((result.objects[2] as NodeClass).spec.kubelet).toEqual(kubelet);
    expect(result.warnings).toEqual([]);
  });

  it('with different kubelets the first NodePool wins and the other is warned', () => {
    const result = convert(
      nodePool('a', 'default', kubelet),
      nodePool('b', 'default', { maxPods: 50 }),
      docsNodeClass(),
    );
    expect((result.objects[2] as NodeClass).spec.kubelet).toEqual(kubelet);
    expect(result.warnings).toEqual([
      {
        object: 'NodePool/b',
        field: 'spec.template.spec.kubelet',
        message:
          'not carried over: EC2NodeClass/default keeps the kubelet of NodePool/a, and in v1 the NodePools sharing an EC2NodeClass share its kubelet; give this NodePool its own EC2NodeClass with spec.kubelet {"maxPods":50}',
      },
    ]);
  });

  it("warns a kubelet-less NodePool whose EC2NodeClass now carries another pool's kubelet", () => {
    const result = convert(
      nodePool('plain', 'default'),
      nodePool('tuned', 'default', kubelet),
      docsNodeClass(),
    );
    expect((result.objects[2] as NodeClass).spec.kubelet).toEqual(kubelet);
    expect(result.warnings).toEqual([
      expect.objectContaining({ object: 'NodePool/plain', field: 'spec.template.spec.nodeClassRef' }),
    ]);
    expect(result.warnings[0]?.message).toContain('now has the kubelet of NodePool/tuned');
  });

  it('an EC2NodeClass with its own kubelet keeps it; differing NodePools are warned', () => {
    const v1: Json = { ...docsNodeClass(), apiVersion: 'karpenter.k8s.aws/v1' };
    (v1.spec as Json).kubelet = { maxPods: 10 };
    const result = convert(nodePool('a', 'default', kubelet), v1);
    expect((result.objects[1] as NodeClass).spec.kubelet).toEqual({ maxPods: 10 });
    expect(result.warnings[0]?.message).toContain('keeps its own spec.kubelet');
  });

  it('NodePools without kubelet leave the EC2NodeClass without one', () => {
    const result = convert(nodePool('a', 'default'), docsNodeClass());
    expect((result.objects[1] as NodeClass).spec).not.toHaveProperty('kubelet');
    expect(result.warnings).toEqual([]);
  });

  it('warns when the EC2NodeClass is not among the inputs', () => {
    const result = convert(nodePool('a', 'elsewhere', kubelet));
    expect(fields(result.warnings)).toEqual(['spec.template.spec.kubelet']);
    expect(result.warnings[0]?.message).toContain('EC2NodeClass/elsewhere is not among the inputs');
  });
});
