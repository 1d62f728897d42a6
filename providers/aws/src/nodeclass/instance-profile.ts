import { stableHash } from '@nodewright/core/apis';

/** IAM's longest instance profile name. */
export const MaxInstanceProfileNameLength = 128;

/**
 * The instance profile nodes of a NodeClass with `spec.role` launch with:
 * `<cluster>_<hash of region and NodeClass name>`, deterministic so every replica and restart
 * agrees, without an IAM call. nodewright does not create it: an instance profile of this name
 * holding the role must exist (create it with `aws iam create-instance-profile` and
 * `add-role-to-instance-profile`), or use `spec.instanceProfile`.
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
