import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  DeleteInstanceProfileCommand,
  GetInstanceProfileCommand,
  IAMClient,
  ListRolesCommand,
  RemoveRoleFromInstanceProfileCommand,
} from '@aws-sdk/client-iam';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from './aws-mock.js';

let mock: AwsMock;
let iam: IAMClient;

beforeEach(async () => {
  mock = await startAwsMock({ cluster: 'c1' });
  iam = new IAMClient({ ...mock.clientConfig, maxAttempts: 1 });
});

afterEach(async () => {
  iam.destroy();
  await mock.close();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: { name: string; message: string; $metadata: { httpStatusCode?: number }; $fault?: string }) => e,
  );

describe('IAM mock with the real SDK (Query protocol, 2010-05-08)', () => {
  it('creates a tagged instance profile, adds a seeded role and reads it back', async () => {
    const created = await iam.send(
      new CreateInstanceProfileCommand({
        InstanceProfileName: 'c1_123',
        Tags: [
          { Key: 'kubernetes.io/cluster/c1', Value: 'owned' },
          { Key: 'karpenter.k8s.aws/ec2nodeclass', Value: 'default' },
        ],
      }),
    );
    expect(created.InstanceProfile).toMatchObject({
      InstanceProfileName: 'c1_123',
      Path: '/',
      Arn: 'arn:aws:iam::123456789012:instance-profile/c1_123',
      Roles: [],
    });
    expect(created.InstanceProfile?.InstanceProfileId).toMatch(/^AIPA[0-9A-F]{17}$/);
    expect(created.InstanceProfile?.CreateDate).toBeInstanceOf(Date);

    await iam.send(
      new AddRoleToInstanceProfileCommand({
        InstanceProfileName: 'c1_123',
        RoleName: 'KarpenterNodeRole-c1',
      }),
    );
    const got = await iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'c1_123' }));
    expect(got.InstanceProfile?.Roles?.map((r) => [r.RoleName, r.Arn])).toEqual([
      ['KarpenterNodeRole-c1', 'arn:aws:iam::123456789012:role/KarpenterNodeRole-c1'],
    ]);
    expect(got.InstanceProfile?.Tags).toEqual([
      { Key: 'kubernetes.io/cluster/c1', Value: 'owned' },
      { Key: 'karpenter.k8s.aws/ec2nodeclass', Value: 'default' },
    ]);
    expect(decodeURIComponent(got.InstanceProfile?.Roles?.[0]?.AssumeRolePolicyDocument ?? '')).toContain(
      'ec2.amazonaws.com',
    );
    expect([...mock.iam.roles.keys()]).toEqual(['KarpenterNodeRole-c1', 'KarpenterNodeRole-my-cluster']);
  });

  it('answers NoSuchEntity (404), EntityAlreadyExists and LimitExceeded (409) as IAM does', async () => {
    const missing = await failure(iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'nope' })));
    expect(missing).toMatchObject({
      name: 'NoSuchEntityException',
      message: 'Instance Profile nope cannot be found.',
      $fault: 'client',
      $metadata: { httpStatusCode: 404 },
    });
    await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'p' }));
    expect(
      await failure(iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'p' }))),
    ).toMatchObject({ name: 'EntityAlreadyExistsException', $metadata: { httpStatusCode: 409 } });
    expect(
      await failure(
        iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'p', RoleName: 'NoRole' })),
      ),
    ).toMatchObject({
      name: 'NoSuchEntityException',
      message: 'The role with name NoRole cannot be found.',
      $metadata: { httpStatusCode: 404 },
    });
    await iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'p', RoleName: 'KarpenterNodeRole-c1' }),
    );
    expect(
      await failure(
        iam.send(
          new AddRoleToInstanceProfileCommand({
            InstanceProfileName: 'p',
            RoleName: 'KarpenterNodeRole-my-cluster',
          }),
        ),
      ),
    ).toMatchObject({ name: 'LimitExceededException', $metadata: { httpStatusCode: 409 } });
  });

  it('deletes a profile only once its role is removed', async () => {
    await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'p' }));
    await iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'p', RoleName: 'KarpenterNodeRole-c1' }),
    );
    expect(
      await failure(iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: 'p' }))),
    ).toMatchObject({
      name: 'DeleteConflictException',
      $metadata: { httpStatusCode: 409 },
    });
    await iam.send(
      new RemoveRoleFromInstanceProfileCommand({
        InstanceProfileName: 'p',
        RoleName: 'KarpenterNodeRole-c1',
      }),
    );
    await iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: 'p' }));
    expect(mock.iam.instanceProfiles.has('p')).toBe(false);
  });

  it('refuses actions it does not implement, and applies injected faults', async () => {
    expect(await failure(iam.send(new ListRolesCommand({})))).toMatchObject({
      name: 'InvalidAction',
      $metadata: { httpStatusCode: 400 },
    });
    mock.faults.failNext({ service: 'iam' }, 1, 'internal');
    expect(
      await failure(iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'x' }))),
    ).toMatchObject({
      name: 'ServiceFailureException',
      $fault: 'server',
      $metadata: { httpStatusCode: 500 },
    });
  });
});
