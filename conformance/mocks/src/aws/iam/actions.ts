import type { Clock } from '@nodewright/core/clock';
import { type QueryNode, str, struct, structs } from '../query/form.js';
import type { XmlObject } from '../query/xml.js';
import { IamError, iamErrors } from './errors.js';
import { EC2_TRUST_POLICY, type IamInstanceProfile, type IamState } from './state.js';

/** What the IAM actions read and change. */
export interface IamContext {
  readonly state: IamState;
  readonly clock: Clock;
}

/** One IAM action: the decoded form in, the `<XResult>` body out (undefined: no Result element). */
export type IamAction = (request: QueryNode, ctx: IamContext) => XmlObject | undefined;

function required(request: QueryNode, field: string): string {
  const value = str(request, field);
  if (value === undefined || value === '') {
    throw iamErrors.missing(field.charAt(0).toLowerCase() + field.slice(1));
  }
  return value;
}

function profileOf(request: QueryNode, ctx: IamContext): IamInstanceProfile {
  const name = required(request, 'InstanceProfileName');
  const profile = ctx.state.instanceProfiles.get(name);
  if (profile === undefined) throw iamErrors.noSuchProfile(name);
  return profile;
}

/** `Tags.member.N.Key/Value`, IAM's list encoding. */
function tagsOf(request: QueryNode): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of structs(struct(request, 'Tags'), 'member')) {
    const key = str(t, 'Key');
    if (key === undefined) throw iamErrors.missing('tags.member.key');
    out[key] = str(t, 'Value') ?? '';
  }
  return out;
}

function profileXml(profile: IamInstanceProfile, ctx: IamContext): XmlObject {
  const tags = Object.entries(profile.tags);
  return {
    Path: profile.path,
    InstanceProfileName: profile.name,
    InstanceProfileId: profile.id,
    Arn: profile.arn,
    CreateDate: new Date(profile.createDate),
    Roles: profile.roles.flatMap((name) => {
      const role = ctx.state.roles.get(name);
      return role === undefined
        ? []
        : [
            {
              Path: role.path,
              RoleName: role.name,
              RoleId: role.id,
              Arn: role.arn,
              CreateDate: new Date(role.createDate),
              // IAM returns policy documents URL-encoded.
              AssumeRolePolicyDocument: encodeURIComponent(EC2_TRUST_POLICY),
            },
          ];
    }),
    ...(tags.length > 0 ? { Tags: tags.map(([Key, Value]) => ({ Key, Value })) } : {}),
  };
}

const getInstanceProfile: IamAction = (request, ctx) => ({
  InstanceProfile: profileXml(profileOf(request, ctx), ctx),
});

const createInstanceProfile: IamAction = (request, ctx) => {
  const name = required(request, 'InstanceProfileName');
  if (ctx.state.instanceProfiles.has(name)) throw iamErrors.profileExists(name);
  const path = str(request, 'Path') ?? '/';
  const profile = ctx.state.createInstanceProfile(name, path, tagsOf(request), ctx.clock.now());
  return { InstanceProfile: profileXml(profile, ctx) };
};

const addRoleToInstanceProfile: IamAction = (request, ctx) => {
  const profile = profileOf(request, ctx);
  const role = required(request, 'RoleName');
  if (!ctx.state.roles.has(role)) throw iamErrors.noSuchRole(role);
  if (profile.roles.length > 0) {
    throw new IamError('LimitExceeded', 'Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1', 409);
  }
  profile.roles.push(role);
  return undefined;
};

const removeRoleFromInstanceProfile: IamAction = (request, ctx) => {
  const profile = profileOf(request, ctx);
  const role = required(request, 'RoleName');
  const at = profile.roles.indexOf(role);
  if (at < 0) throw iamErrors.noSuchRole(role);
  profile.roles.splice(at, 1);
  return undefined;
};

const deleteInstanceProfile: IamAction = (request, ctx) => {
  const profile = profileOf(request, ctx);
  if (profile.roles.length > 0) {
    throw new IamError(
      'DeleteConflict',
      'Cannot delete entity, must remove roles from instance profile first.',
      409,
    );
  }
  ctx.state.instanceProfiles.delete(profile.name);
  return undefined;
};

/** The IAM actions the AWS provider calls (providers/aws/src/sdk/iam-api.ts). */
export const IAM_ACTIONS: Readonly<Record<string, IamAction>> = {
  GetInstanceProfile: getInstanceProfile,
  CreateInstanceProfile: createInstanceProfile,
  AddRoleToInstanceProfile: addRoleToInstanceProfile,
  RemoveRoleFromInstanceProfile: removeRoleFromInstanceProfile,
  DeleteInstanceProfile: deleteInstanceProfile,
};
