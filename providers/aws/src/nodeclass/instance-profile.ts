import type { InstanceProfile, Tag } from '@aws-sdk/client-iam';
import { stableHash } from '@nodewright/core/apis';
import type { EC2NodeClass } from '../apis/index.js';
import { awsErrorCode, errorMessage } from '../launch/aws-error.js';
import { clusterTagKey, TagKeys } from '../launch/tags.js';
import type { IamApi } from '../sdk/index.js';

/** IAM's longest instance profile name. */
export const MaxInstanceProfileNameLength = 128;

/** Tag key naming the region on instance profiles nodewright creates (IAM is global). */
export const RegionTagKey = 'topology.kubernetes.io/region';

/**
 * The instance profile nodes of a NodeClass with `spec.role` launch with:
 * `<cluster>_<hash of region and NodeClass name>`, deterministic so every replica and restart
 * agrees on the profile InstanceProfiles creates.
 */
export function instanceProfileNameForRole(
  clusterName: string,
  region: string,
  nodeClassName: string,
): string {
  const suffix = `_${stableHash({ region, nodeClassName })}`;
  // Names allow [\w+=,.@-]; anything else in the cluster name becomes '-'.
  const prefix = clusterName
    .replace(/[^\w+=,.@-]/g, '-')
    .slice(0, MaxInstanceProfileNameLength - suffix.length);
  return `${prefix}${suffix}`;
}

/** Tags of a created instance profile: owned by the cluster, naming the NodeClass and region. */
export function instanceProfileTags(clusterName: string, region: string, nodeClassName: string): Tag[] {
  return [
    { Key: clusterTagKey(clusterName), Value: 'owned' },
    { Key: TagKeys.EC2NodeClass, Value: nodeClassName },
    { Key: RegionTagKey, Value: region },
  ];
}

/** `spec.role` may be a name or a path-qualified name (`/nodes/NodeRole`); IAM wants the name. */
export function roleNameOf(role: string): string {
  return role.slice(role.lastIndexOf('/') + 1);
}

/**
 * What must change for a profile holding `current` roles to hold exactly `wanted`: roles to
 * remove (a profile holds at most one, so any other is taken out first) and whether to add.
 */
export function roleChanges(current: readonly string[], wanted: string): { remove: string[]; add: boolean } {
  return { remove: current.filter((r) => r !== wanted), add: !current.includes(wanted) };
}

/** What reconciling a NodeClass's instance profile came to. */
export interface InstanceProfileOutcome {
  /** The profile nodes launch with; undefined when neither role nor instanceProfile is set. */
  readonly name?: string;
  /** Why it is not usable (IAM's code and message, and the step), for InstanceProfileReady=False. */
  readonly problem?: string;
}

/** How InstanceProfiles talks to IAM and names what it creates. */
export interface InstanceProfilesDeps {
  readonly iam: IamApi;
  readonly clusterName: string;
  readonly region: string;
}

const NoSuchEntity = 'NoSuchEntity';
/** What is read from a profile: the roles it holds and its tags. */
type Profile = Pick<InstanceProfile, 'Roles' | 'Tags'>;
const describe = (error: unknown) => `${awsErrorCode(error) ?? 'Error'}: ${errorMessage(error)}`;

/**
 * The instance profiles of EC2NodeClasses, as Karpenter manages them. With `spec.role`, the
 * profile named by instanceProfileNameForRole is created when missing (tagged for the cluster,
 * NodeClass and region) and made to hold exactly that role; it is deleted with the NodeClass.
 * With `spec.instanceProfile`, the profile is only checked to exist and never changed.
 */
export class InstanceProfiles {
  readonly #deps: InstanceProfilesDeps;

  constructor(deps: InstanceProfilesDeps) {
    this.#deps = deps;
  }

  /** The profile's name for a role-based NodeClass. */
  nameFor(nodeClass: EC2NodeClass): string {
    return instanceProfileNameForRole(
      this.#deps.clusterName,
      this.#deps.region,
      nodeClass.metadata.name ?? '',
    );
  }

  /**
   * Makes the NodeClass's instance profile usable, or says why it is not. IAM failures become
   * the outcome's `problem` (NoSuchEntity for a missing role or profile, AccessDenied, ...),
   * never a throw, so the status can say what is wrong.
   */
  async reconcile(nodeClass: EC2NodeClass): Promise<InstanceProfileOutcome> {
    const { instanceProfile, role } = nodeClass.spec;
    if (instanceProfile !== undefined) return this.#check(instanceProfile);
    if (role === undefined) return { problem: 'neither spec.role nor spec.instanceProfile is set' };
    const name = this.nameFor(nodeClass);
    const roleName = roleNameOf(role);
    let profile: Profile | undefined;
    try {
      profile = await this.#get(name);
      if (profile === undefined) profile = await this.#create(name, nodeClass.metadata.name ?? '');
    } catch (error) {
      return { name, problem: `instance profile ${name}: ${describe(error)}` };
    }
    const changes = roleChanges(
      (profile.Roles ?? []).map((r) => r.RoleName ?? ''),
      roleName,
    );
    try {
      for (const other of changes.remove) {
        await this.#deps.iam.removeRoleFromInstanceProfile({ InstanceProfileName: name, RoleName: other });
      }
    } catch (error) {
      return {
        name,
        problem: `removing role ${changes.remove.join(', ')} from instance profile ${name}: ${describe(error)}`,
      };
    }
    if (changes.add) {
      try {
        await this.#deps.iam.addRoleToInstanceProfile({ InstanceProfileName: name, RoleName: roleName });
      } catch (error) {
        const detail =
          awsErrorCode(error) === NoSuchEntity
            ? `role ${roleName} does not exist (${describe(error)})`
            : describe(error);
        return { name, problem: `adding role ${roleName} to instance profile ${name}: ${detail}` };
      }
    }
    return { name };
  }

  /**
   * Deletes the instance profile created for a role-based NodeClass: takes its roles out, then
   * deletes it. A profile that is gone counts as deleted; one not tagged as owned by this cluster
   * is left alone (it was not created here). `spec.instanceProfile` is the user's and is kept.
   * @returns what happened, for the log.
   * @throws the IAM error of any other failure (the caller retries).
   */
  async delete(nodeClass: EC2NodeClass): Promise<string> {
    if (nodeClass.spec.role === undefined) return 'spec.instanceProfile is not managed by nodewright; kept';
    const name = this.nameFor(nodeClass);
    const profile = await this.#get(name);
    if (profile === undefined) return `instance profile ${name} does not exist`;
    const owned = (profile.Tags ?? []).some(
      (t) => t.Key === clusterTagKey(this.#deps.clusterName) && t.Value === 'owned',
    );
    if (!owned)
      return `instance profile ${name} is not tagged ${clusterTagKey(this.#deps.clusterName)}=owned; kept`;
    const gone = (error: unknown) => {
      if (awsErrorCode(error) !== NoSuchEntity) throw error;
    };
    for (const role of profile.Roles ?? []) {
      await this.#deps.iam
        .removeRoleFromInstanceProfile({ InstanceProfileName: name, RoleName: role.RoleName ?? '' })
        .catch(gone);
    }
    await this.#deps.iam.deleteInstanceProfile({ InstanceProfileName: name }).catch(gone);
    return `instance profile ${name} deleted`;
  }

  async #check(name: string): Promise<InstanceProfileOutcome> {
    try {
      const profile = await this.#get(name);
      return profile === undefined ? { name, problem: `instance profile ${name} does not exist` } : { name };
    } catch (error) {
      return { name, problem: `instance profile ${name}: ${describe(error)}` };
    }
  }

  async #get(name: string): Promise<Profile | undefined> {
    try {
      return (await this.#deps.iam.getInstanceProfile({ InstanceProfileName: name })).InstanceProfile;
    } catch (error) {
      if (awsErrorCode(error) === NoSuchEntity) return undefined;
      throw error;
    }
  }

  async #create(name: string, nodeClassName: string): Promise<Profile> {
    const { iam, clusterName, region } = this.#deps;
    try {
      const out = await iam.createInstanceProfile({
        InstanceProfileName: name,
        Tags: instanceProfileTags(clusterName, region, nodeClassName),
      });
      // IAM always returns the profile; a new one holds no role.
      return out.InstanceProfile ?? { Roles: [] };
    } catch (error) {
      // Another replica created it first: use theirs.
      if (awsErrorCode(error) !== 'EntityAlreadyExists') throw error;
      const existing = await this.#get(name);
      if (existing === undefined) throw error;
      return existing;
    }
  }
}
