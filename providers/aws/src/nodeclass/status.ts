import type { Condition } from '@nodewright/core/apis';
import type { EC2NodeClass, EC2NodeClassStatus } from '../apis/index.js';
import type { NodeClassFacts } from './facts.js';

/** The condition types of an EC2NodeClass; Ready is True only when all the others are. */
export const NodeClassConditions = {
  SubnetsReady: 'SubnetsReady',
  SecurityGroupsReady: 'SecurityGroupsReady',
  AMIsReady: 'AMIsReady',
  InstanceProfileReady: 'InstanceProfileReady',
  ValidationSucceeded: 'ValidationSucceeded',
  Ready: 'Ready',
} as const;

interface Verdict {
  readonly type: string;
  readonly ok: boolean;
  readonly reason: string;
  readonly message: string;
}

function verdicts(facts: NodeClassFacts): Verdict[] {
  const p = facts.problems;
  const v = (type: string, problem: string | undefined, failReason: string, okMessage: string): Verdict =>
    problem === undefined
      ? { type, ok: true, reason: type, message: okMessage }
      : { type, ok: false, reason: failReason, message: problem };
  return [
    v(
      NodeClassConditions.SubnetsReady,
      p.subnets,
      'SubnetsNotFound',
      `${facts.subnets.length} subnet(s) in ${new Set(facts.subnets.map((s) => s.zone)).size} zone(s)`,
    ),
    v(
      NodeClassConditions.SecurityGroupsReady,
      p.securityGroups,
      'SecurityGroupsNotFound',
      `${facts.securityGroups.length} security group(s)`,
    ),
    v(NodeClassConditions.AMIsReady, p.amis, 'AMINotFound', `${facts.amis.length} AMI(s)`),
    v(
      NodeClassConditions.InstanceProfileReady,
      p.instanceProfile,
      'InstanceProfileNotFound',
      facts.instanceProfileDerivedFromRole === undefined
        ? `instance profile ${facts.instanceProfile ?? ''}`
        : `instance profile ${facts.instanceProfile ?? ''} holds role ${facts.instanceProfileDerivedFromRole}`,
    ),
    v(NodeClassConditions.ValidationSucceeded, p.validation, 'ValidationFailed', 'spec is valid'),
  ];
}

/**
 * The status an EC2NodeClass should have for these facts: the resolved subnets, security
 * groups, AMIs and instance profile, and one condition per check plus Ready (False naming each
 * failing check and why). A condition keeps its lastTransitionTime while its status is
 * unchanged; `observedGeneration` is the object's generation. Pure: same inputs, same status.
 */
export function nodeClassStatus(
  nodeClass: EC2NodeClass,
  facts: NodeClassFacts,
  now: number,
): EC2NodeClassStatus {
  const previous = new Map((nodeClass.status?.conditions ?? []).map((c) => [c.type, c]));
  const generation = nodeClass.metadata.generation;
  const at = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const condition = (type: string, ok: boolean, reason: string, message: string): Condition => {
    const status = ok ? 'True' : 'False';
    const before = previous.get(type);
    return {
      type,
      status,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
      lastTransitionTime: before?.status === status ? before.lastTransitionTime : at,
      reason,
      message,
    };
  };
  const checks = verdicts(facts);
  const failing = checks.filter((c) => !c.ok);
  const conditions = [
    ...checks.map((c) => condition(c.type, c.ok, c.reason, c.message)),
    failing.length === 0
      ? condition(
          NodeClassConditions.Ready,
          true,
          'Ready',
          'subnets, security groups, AMIs and instance profile resolved',
        )
      : condition(
          NodeClassConditions.Ready,
          false,
          'NotReady',
          failing.map((c) => `${c.type}=False: ${c.message}`).join('; '),
        ),
  ];
  return {
    subnets: facts.subnets.map((s) => ({
      id: s.id,
      zone: s.zone,
      ...(s.zoneID !== undefined ? { zoneID: s.zoneID } : {}),
    })),
    securityGroups: facts.securityGroups.map((g) => ({
      id: g.id,
      ...(g.name !== undefined ? { name: g.name } : {}),
    })),
    amis: facts.amis.map((a) => ({
      id: a.id,
      ...(a.name !== undefined ? { name: a.name } : {}),
      ...(a.deprecated ? { deprecated: true } : {}),
      requirements: a.requirements.map((r) => ({
        key: r.key,
        operator: r.operator,
        ...(r.values !== undefined ? { values: [...r.values] } : {}),
      })),
    })),
    ...(facts.instanceProfile !== undefined ? { instanceProfile: facts.instanceProfile } : {}),
    conditions,
  } as EC2NodeClassStatus;
}

/** Whether a NodeClass's Ready condition is True (for callers that only have the object). */
export function isNodeClassReady(nodeClass: Pick<EC2NodeClass, 'status'>): boolean {
  return nodeClass.status?.conditions?.find((c) => c.type === NodeClassConditions.Ready)?.status === 'True';
}
