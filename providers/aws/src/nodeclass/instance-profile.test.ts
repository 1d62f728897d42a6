import type { InstanceProfile } from '@aws-sdk/client-iam';
import { describe, expect, it } from 'vitest';
import { awsError, fakeIam } from '../provider/testing/fake-ec2.js';
import {
  InstanceProfiles,
  instanceProfileNameForRole,
  MaxInstanceProfileNameLength,
  roleChanges,
} from './instance-profile.js';
import { nodeClassFixture } from './testing.js';

describe('instanceProfileNameForRole', () => {
  it('is <cluster>_<hash>, the same on every call, different per NodeClass and region', () => {
    const a = instanceProfileNameForRole('prod', 'us-east-1', 'default');
    expect(a).toMatch(/^prod_[0-9]+$/);
    expect(instanceProfileNameForRole('prod', 'us-east-1', 'default')).toBe(a);
    expect(instanceProfileNameForRole('prod', 'us-east-1', 'gpu')).not.toBe(a);
    expect(instanceProfileNameForRole('prod', 'us-west-2', 'default')).not.toBe(a);
  });
  it('keeps within IAM limits', () => {
    const name = instanceProfileNameForRole(`my cluster/${'x'.repeat(200)}`, 'us-east-1', 'default');
    expect(name.length).toBeLessThanOrEqual(MaxInstanceProfileNameLength);
    expect(name).toMatch(/^[\w+=,.@-]+$/);
  });
});

describe('roleChanges', () => {
  it('adds the wanted role, removes any other, and leaves a correct profile alone', () => {
    expect(roleChanges([], 'a')).toEqual({ remove: [], add: true });
    expect(roleChanges(['a'], 'a')).toEqual({ remove: [], add: false });
    expect(roleChanges(['b'], 'a')).toEqual({ remove: ['b'], add: true });
  });
});

const profile = (
  roles: string[],
  tags: Record<string, string> = {},
): { InstanceProfile: InstanceProfile } => ({
  InstanceProfile: {
    InstanceProfileName: 'p',
    InstanceProfileId: 'AIPA1',
    Arn: 'arn:aws:iam::123456789012:instance-profile/p',
    Path: '/',
    CreateDate: new Date(0),
    Roles: roles.map((RoleName) => ({
      RoleName,
      RoleId: 'AROA1',
      Arn: `arn:aws:iam::123456789012:role/${RoleName}`,
      Path: '/',
      CreateDate: new Date(0),
    })),
    Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
  },
});

function world() {
  const iam = fakeIam();
  const profiles = new InstanceProfiles({ iam: iam.api, clusterName: 'prod', region: 'us-west-2' });
  const nodeClass = nodeClassFixture({ role: 'NodeRole' });
  const name = profiles.nameFor(nodeClass);
  return { iam, profiles, nodeClass, name };
}

describe('InstanceProfiles.reconcile', () => {
  it('creates a missing profile, tagged for the cluster, NodeClass and region, and adds the role', async () => {
    const { iam, profiles, nodeClass, name } = world();
    iam.on('getInstanceProfile', () => {
      throw awsError('NoSuchEntity', `Instance Profile ${name} cannot be found.`);
    });
    iam.on('createInstanceProfile', () => profile([]));
    expect(await profiles.reconcile(nodeClass)).toEqual({ name });
    expect(iam.calls.map((c) => c.method)).toEqual([
      'getInstanceProfile',
      'createInstanceProfile',
      'addRoleToInstanceProfile',
    ]);
    expect(iam.inputs('createInstanceProfile')).toEqual([
      {
        InstanceProfileName: name,
        Tags: [
          { Key: 'kubernetes.io/cluster/prod', Value: 'owned' },
          { Key: 'karpenter.k8s.aws/ec2nodeclass', Value: 'default' },
          { Key: 'topology.kubernetes.io/region', Value: 'us-west-2' },
        ],
      },
    ]);
    expect(iam.inputs('addRoleToInstanceProfile')).toEqual([
      { InstanceProfileName: name, RoleName: 'NodeRole' },
    ]);
  });

  it('makes no change when the profile already holds the role', async () => {
    const { iam, profiles, nodeClass, name } = world();
    iam.on('getInstanceProfile', () => profile(['NodeRole']));
    expect(await profiles.reconcile(nodeClass)).toEqual({ name });
    expect(iam.calls.map((c) => c.method)).toEqual(['getInstanceProfile']);
  });

  it('swaps a different role for the NodeClass role (path stripped)', async () => {
    const { iam, profiles, name } = world();
    iam.on('getInstanceProfile', () => profile(['OldRole']));
    expect(await profiles.reconcile(nodeClassFixture({ role: '/nodes/NodeRole' }))).toEqual({ name });
    expect(iam.calls.map((c) => [c.method, c.input])).toEqual([
      ['getInstanceProfile', { InstanceProfileName: name }],
      ['removeRoleFromInstanceProfile', { InstanceProfileName: name, RoleName: 'OldRole' }],
      ['addRoleToInstanceProfile', { InstanceProfileName: name, RoleName: 'NodeRole' }],
    ]);
  });

  it('says the role does not exist when IAM answers NoSuchEntity', async () => {
    const { iam, profiles, nodeClass, name } = world();
    iam.on('getInstanceProfile', () => profile([]));
    iam.on('addRoleToInstanceProfile', () => {
      throw awsError('NoSuchEntity', 'The role with name NodeRole cannot be found.');
    });
    expect(await profiles.reconcile(nodeClass)).toEqual({
      name,
      problem: `adding role NodeRole to instance profile ${name}: role NodeRole does not exist (NoSuchEntity: The role with name NodeRole cannot be found.)`,
    });
  });

  it('reports other IAM failures with their code, and uses a concurrent creator’s profile', async () => {
    const { iam, profiles, nodeClass, name } = world();
    iam.on('getInstanceProfile', () => {
      throw awsError('AccessDenied', 'not authorized to perform: iam:GetInstanceProfile');
    });
    expect(await profiles.reconcile(nodeClass)).toEqual({
      name,
      problem: `instance profile ${name}: AccessDenied: not authorized to perform: iam:GetInstanceProfile`,
    });

    const race = world();
    let gets = 0;
    race.iam.on('getInstanceProfile', () => {
      if (gets++ === 0) throw awsError('NoSuchEntity');
      return profile(['NodeRole']);
    });
    race.iam.on('createInstanceProfile', () => {
      throw awsError('EntityAlreadyExists');
    });
    expect(await race.profiles.reconcile(race.nodeClass)).toEqual({ name: race.name });
    expect(race.iam.calls.map((c) => c.method)).toEqual([
      'getInstanceProfile',
      'createInstanceProfile',
      'getInstanceProfile',
    ]);
  });

  it('only checks that spec.instanceProfile exists', async () => {
    const { iam, profiles } = world();
    iam.on('getInstanceProfile', (input) => {
      if (input.InstanceProfileName === 'gone') throw awsError('NoSuchEntity');
      return profile([]);
    });
    expect(await profiles.reconcile(nodeClassFixture({ role: undefined, instanceProfile: 'mine' }))).toEqual({
      name: 'mine',
    });
    expect(await profiles.reconcile(nodeClassFixture({ role: undefined, instanceProfile: 'gone' }))).toEqual({
      name: 'gone',
      problem: 'instance profile gone does not exist',
    });
    expect(iam.calls.map((c) => c.method)).toEqual(['getInstanceProfile', 'getInstanceProfile']);
  });
});

describe('InstanceProfiles.delete', () => {
  it('takes the roles out of an owned profile and deletes it', async () => {
    const { iam, profiles, nodeClass, name } = world();
    iam.on('getInstanceProfile', () => profile(['NodeRole'], { 'kubernetes.io/cluster/prod': 'owned' }));
    expect(await profiles.delete(nodeClass)).toBe(`instance profile ${name} deleted`);
    expect(iam.calls.map((c) => [c.method, c.input])).toEqual([
      ['getInstanceProfile', { InstanceProfileName: name }],
      ['removeRoleFromInstanceProfile', { InstanceProfileName: name, RoleName: 'NodeRole' }],
      ['deleteInstanceProfile', { InstanceProfileName: name }],
    ]);
  });

  it('keeps profiles it does not own and spec.instanceProfile; a gone profile is done', async () => {
    const { iam, profiles, nodeClass, name } = world();
    iam.on('getInstanceProfile', () => profile(['NodeRole'], { 'kubernetes.io/cluster/other': 'owned' }));
    expect(await profiles.delete(nodeClass)).toMatch(/not tagged kubernetes.io\/cluster\/prod=owned; kept$/);
    expect(await profiles.delete(nodeClassFixture({ role: undefined, instanceProfile: 'mine' }))).toMatch(
      /kept$/,
    );
    iam.on('getInstanceProfile', () => {
      throw awsError('NoSuchEntity');
    });
    expect(await profiles.delete(nodeClass)).toBe(`instance profile ${name} does not exist`);
    expect(iam.calls.map((c) => c.method)).toEqual(['getInstanceProfile', 'getInstanceProfile']);
  });

  it('throws other IAM failures so the finalizer stays', async () => {
    const { iam, profiles, nodeClass } = world();
    iam.on('getInstanceProfile', () => profile([], { 'kubernetes.io/cluster/prod': 'owned' }));
    iam.on('deleteInstanceProfile', () => {
      throw awsError('AccessDenied');
    });
    await expect(profiles.delete(nodeClass)).rejects.toMatchObject({ name: 'AccessDenied' });
  });
});
