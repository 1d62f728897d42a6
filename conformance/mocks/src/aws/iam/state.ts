import { hexOf } from '../seed/hash.js';

/** An IAM role as GetInstanceProfile lists it. */
export interface IamRole {
  readonly name: string;
  readonly id: string;
  readonly arn: string;
  readonly path: string;
  readonly createDate: number;
}

/** An instance profile: at most one role (IAM's InstanceSessionsPerInstanceProfile quota). */
export interface IamInstanceProfile {
  readonly name: string;
  readonly id: string;
  readonly arn: string;
  readonly path: string;
  readonly createDate: number;
  readonly roles: string[];
  readonly tags: Record<string, string>;
}

/** EC2's trust policy for node roles, as the roles are seeded with it. */
export const EC2_TRUST_POLICY = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});

/**
 * The IAM mock's roles and instance profiles (IAM is global: one state per mock, not per region).
 * Tests change it directly (add or remove a role) to set up a scenario.
 */
export class IamState {
  readonly roles = new Map<string, IamRole>();
  readonly instanceProfiles = new Map<string, IamInstanceProfile>();
  readonly #accountId: string;

  constructor(deps: {
    readonly accountId: string;
    readonly roles?: readonly string[];
    readonly now: number;
  }) {
    this.#accountId = deps.accountId;
    for (const name of deps.roles ?? []) this.addRole(name, deps.now);
  }

  /** Adds a role with EC2's trust policy, as `aws iam create-role` would. */
  addRole(name: string, now: number): IamRole {
    const role: IamRole = {
      name,
      id: `AROA${hexOf(`role/${name}`, 17).toUpperCase()}`,
      arn: `arn:aws:iam::${this.#accountId}:role/${name}`,
      path: '/',
      createDate: now,
    };
    this.roles.set(name, role);
    return role;
  }

  /** A new, empty instance profile (callers check the name is free). */
  createInstanceProfile(
    name: string,
    path: string,
    tags: Record<string, string>,
    now: number,
  ): IamInstanceProfile {
    const profile: IamInstanceProfile = {
      name,
      id: `AIPA${hexOf(`instance-profile/${name}/${now}`, 17).toUpperCase()}`,
      arn: `arn:aws:iam::${this.#accountId}:instance-profile${path}${name}`,
      path,
      createDate: now,
      roles: [],
      tags,
    };
    this.instanceProfiles.set(name, profile);
    return profile;
  }
}
