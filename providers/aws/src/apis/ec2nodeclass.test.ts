import { readdirSync, readFileSync } from 'node:fs';
import { KindRegistry, withValue } from '@nodewright/core/apis';
import { decodeManifests } from '@nodewright/core/manifests';
import { describe, expect, test } from 'vitest';
import { amiFamilyOfAlias, type EC2NodeClass, ec2NodeClassSchema } from './ec2nodeclass.js';
import { exampleEC2NodeClass } from './examples.js';
import {
  EC2NodeClassAnnotations,
  EC2NodeClassHashVersion,
  ec2NodeClassHash,
  resolvedAmiFamily,
} from './hash.js';
import { ec2NodeClassKind } from './kind.js';

const parse = (input: unknown): EC2NodeClass => ec2NodeClassSchema.parse(input);

describe('EC2NodeClass parsing', () => {
  test('metadataOptions default as upstream, whole or in part', () => {
    expect(parse(exampleEC2NodeClass()).spec.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'required',
    });
    const partial = withValue(exampleEC2NodeClass(), ['spec', 'metadataOptions'], { httpTokens: 'optional' });
    expect(parse(partial).spec.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'optional',
    });
  });

  test('a full spec parses unchanged apart from defaults', () => {
    const spec = {
      ...exampleEC2NodeClass().spec,
      role: undefined,
      instanceProfile: 'KarpenterNodeInstanceProfile',
      amiFamily: 'AL2023',
      capacityReservationSelectorTerms: [{ tags: { team: 'ml' }, ownerID: '123456789012' }],
      placementGroupSelector: { name: 'training' },
      associatePublicIPAddress: false,
      ipPrefixCount: 1,
      userData: '#!/bin/bash\necho hi',
      tags: { team: 'web' },
      kubelet: {
        clusterDNS: ['10.100.0.10'],
        maxPods: 110,
        podsPerCore: 10,
        systemReserved: { cpu: '100m', memory: '100Mi' },
        kubeReserved: { cpu: '200m', 'ephemeral-storage': '1Gi' },
        evictionHard: { 'memory.available': '5%' },
        evictionSoft: { 'nodefs.available': '10%' },
        evictionSoftGracePeriod: { 'nodefs.available': '1m30s' },
        evictionMaxPodGracePeriod: 60,
        imageGCHighThresholdPercent: 85,
        imageGCLowThresholdPercent: 80,
        cpuCFSQuota: true,
      },
      blockDeviceMappings: [
        {
          deviceName: '/dev/xvda',
          rootVolume: true,
          ebs: {
            volumeSize: '100Gi',
            volumeType: 'gp3',
            iops: 3000,
            throughput: 125,
            encrypted: true,
            deleteOnTermination: true,
          },
        },
      ],
      instanceStorePolicy: 'RAID0',
      networkInterfaces: [{ networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' }],
      detailedMonitoring: true,
      connectionTracking: { tcpEstablishedTimeout: 3600 },
      context: 'fleet-context',
      cpuOptions: { nestedVirtualization: 'enabled' },
    };
    const { role: _, ...expected } = spec;
    const parsed = parse(withValue(exampleEC2NodeClass(), ['spec'], spec));
    expect(parsed.spec).toEqual({ ...expected, metadataOptions: parsed.spec.metadataOptions });
  });

  test('status defaults capacity reservation type and state', () => {
    const status = {
      subnets: [{ id: 'subnet-1', zone: 'us-east-1a', zoneID: 'use1-az1' }],
      securityGroups: [{ id: 'sg-1', name: 'nodes' }],
      amis: [
        {
          id: 'ami-1',
          name: 'al2023',
          requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
        },
      ],
      capacityReservations: [
        {
          availabilityZone: 'us-east-1a',
          id: 'cr-1',
          instanceMatchCriteria: 'open',
          instanceType: 'p5.48xlarge',
          ownerID: '123456789012',
        },
      ],
      instanceProfile: 'profile',
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastTransitionTime: '2024-01-02T15:04:05Z',
          reason: 'Ready',
          message: '',
        },
      ],
    };
    const parsed = parse(withValue(exampleEC2NodeClass(), ['status'], status));
    expect(parsed.status?.capacityReservations?.[0]).toMatchObject({
      reservationType: 'default',
      state: 'active',
    });
  });

  test('the repository examples are valid EC2NodeClasses', () => {
    const dir = new URL('../../../../examples/nodepools/aws/', import.meta.url);
    const classes = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => decodeManifests(f, readFileSync(new URL(f, dir), 'utf8')).manifests)
      .filter((m) => m.kind === 'EC2NodeClass')
      .map((m) => m.object);
    expect(classes.length).toBeGreaterThan(0);
    for (const nodeClass of classes) {
      expect(ec2NodeClassSchema.safeParse(nodeClass).error?.issues ?? []).toEqual([]);
    }
  });

  test('the kind registers with the core kinds', () => {
    const registry = new KindRegistry([ec2NodeClassKind]);
    expect(registry.get('karpenter.k8s.aws/v1', 'EC2NodeClass')).toBe(ec2NodeClassKind);
    expect(ec2NodeClassKind.namespaced).toBe(false);
  });
});

describe('AMI families', () => {
  test('alias families map to amiFamily values', () => {
    expect(amiFamilyOfAlias('al2023@latest')).toBe('AL2023');
    expect(amiFamilyOfAlias('bottlerocket@v1.20.0')).toBe('Bottlerocket');
    expect(amiFamilyOfAlias('windows2022@latest')).toBe('Windows2022');
    expect(amiFamilyOfAlias('ubuntu@latest')).toBeUndefined();
    expect(resolvedAmiFamily(parse(exampleEC2NodeClass()).spec)).toBe('AL2023');
  });
});

describe('ec2NodeClassHash', () => {
  const base = () => parse(exampleEC2NodeClass());
  const hashOf = (input: unknown) => ec2NodeClassHash(parse(input));

  test('ignores selector terms and an amiFamily the alias implies', () => {
    let changed = withValue(exampleEC2NodeClass(), ['spec', 'subnetSelectorTerms'], [{ id: 'subnet-9' }]);
    changed = withValue(changed, ['spec', 'securityGroupSelectorTerms'], [{ name: 'other' }]);
    changed = withValue(changed, ['spec', 'amiSelectorTerms'], [{ alias: 'al2023@v20240625' }]);
    changed = withValue(changed, ['spec', 'amiFamily'], 'AL2023');
    expect(hashOf(changed)).toBe(ec2NodeClassHash(base()));
  });

  test('treats zero values as unset and lists as sets', () => {
    const zero = withValue(exampleEC2NodeClass(), ['spec', 'detailedMonitoring'], false);
    expect(hashOf(zero)).toBe(ec2NodeClassHash(base()));
    const dns = (servers: string[]) =>
      withValue(exampleEC2NodeClass(), ['spec', 'kubelet'], { clusterDNS: servers });
    expect(hashOf(dns(['10.0.0.1', '10.0.0.2']))).toBe(hashOf(dns(['10.0.0.2', '10.0.0.1'])));
  });

  test.each([
    ['userData', ['spec', 'userData'], 'echo hi'],
    ['tags', ['spec', 'tags'], { team: 'web' }],
    ['kubelet', ['spec', 'kubelet', 'maxPods'], 50],
    ['metadataOptions', ['spec', 'metadataOptions', 'httpTokens'], 'optional'],
    ['the AMI family through the alias', ['spec', 'amiSelectorTerms', 0, 'alias'], 'bottlerocket@latest'],
    ['a tag value that is empty', ['spec', 'tags'], { team: '' }],
  ] as const)('changes with %s', (_, path, value) => {
    expect(hashOf(withValue(exampleEC2NodeClass(), path, value))).not.toBe(ec2NodeClassHash(base()));
  });

  test('changes with the CA bundle', () => {
    expect(ec2NodeClassHash(base(), 'CA')).not.toBe(ec2NodeClassHash(base()));
  });

  test('annotations and version', () => {
    expect(EC2NodeClassAnnotations.Hash).toBe('karpenter.k8s.aws/ec2nodeclass-hash');
    expect(EC2NodeClassAnnotations.HashVersion).toBe('karpenter.k8s.aws/ec2nodeclass-hash-version');
    expect(EC2NodeClassHashVersion).not.toBe('v5');
  });
});
