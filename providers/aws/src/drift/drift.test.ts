import { describe, expect, it } from 'vitest';
import { EC2NodeClassAnnotations, EC2NodeClassHashVersion, ec2NodeClassHash } from '../apis/index.js';
import { nodeClaim, readyNodeClass } from '../provider/testing/fixtures.js';
import { AwsDriftReasons, driftReason } from './drift.js';

const stamped = (hash: string, version = EC2NodeClassHashVersion, imageID = 'ami-amd') =>
  nodeClaim('c', [], (c) => {
    c.metadata.annotations = {
      [EC2NodeClassAnnotations.Hash]: hash,
      [EC2NodeClassAnnotations.HashVersion]: version,
    };
    c.status = { imageID };
  });
const onNetwork = { subnetId: 'subnet-a', securityGroupIds: ['sg-1'] };

describe('driftReason', () => {
  const nc = readyNodeClass();
  const hash = ec2NodeClassHash(nc);

  it('is undefined when the claim matches its NodeClass', () => {
    expect(driftReason({ nodeClaim: stamped(hash), nodeClass: nc, instance: onNetwork })).toBeUndefined();
  });

  it('is NodeClassDrift when a hashed field changed', () => {
    const changed = readyNodeClass((n) => {
      n.spec.detailedMonitoring = true;
    });
    expect(driftReason({ nodeClaim: stamped(hash), nodeClass: changed, instance: onNetwork })).toBe(
      AwsDriftReasons.NodeClass,
    );
  });

  it('ignores a hash of another hash version', () => {
    const changed = readyNodeClass((n) => {
      n.spec.detailedMonitoring = true;
    });
    expect(
      driftReason({ nodeClaim: stamped(hash, 'v5'), nodeClass: changed, instance: onNetwork }),
    ).toBeUndefined();
  });

  it('counts the CA bundle in the hash', () => {
    expect(
      driftReason({ nodeClaim: stamped(hash), nodeClass: nc, instance: onNetwork, caBundle: 'Tk VX' }),
    ).toBe(AwsDriftReasons.NodeClass);
  });

  it('is AMIDrift when the image is no longer among status.amis', () => {
    expect(
      driftReason({
        nodeClaim: stamped(hash, EC2NodeClassHashVersion, 'ami-old'),
        nodeClass: nc,
        instance: onNetwork,
      }),
    ).toBe(AwsDriftReasons.AMI);
  });

  it('is SecurityGroupDrift when the groups differ in either direction', () => {
    expect(
      driftReason({
        nodeClaim: stamped(hash),
        nodeClass: nc,
        instance: { ...onNetwork, securityGroupIds: ['sg-1', 'sg-2'] },
      }),
    ).toBe(AwsDriftReasons.SecurityGroup);
    expect(
      driftReason({
        nodeClaim: stamped(hash),
        nodeClass: nc,
        instance: { ...onNetwork, securityGroupIds: [] },
      }),
    ).toBe(AwsDriftReasons.SecurityGroup);
  });

  it('is SubnetDrift when the subnet is not in status.subnets', () => {
    expect(
      driftReason({
        nodeClaim: stamped(hash),
        nodeClass: nc,
        instance: { ...onNetwork, subnetId: 'subnet-z' },
      }),
    ).toBe(AwsDriftReasons.Subnet);
  });

  it('skips dynamic checks while the status is unresolved', () => {
    const empty = readyNodeClass((n) => {
      n.status = {};
    });
    const instance = { subnetId: 'subnet-z', securityGroupIds: ['sg-9'] };
    expect(
      driftReason({
        nodeClaim: stamped(ec2NodeClassHash(empty), EC2NodeClassHashVersion, 'ami-x'),
        nodeClass: empty,
        instance,
      }),
    ).toBeUndefined();
  });
});
