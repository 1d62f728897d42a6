import type { ResolvedAmi } from './amis.js';

/** A subnet a NodeClass launches into. */
export interface ResolvedSubnet {
  readonly id: string;
  readonly zone: string;
  readonly zoneID?: string;
}

/** A security group nodes get. */
export interface ResolvedSecurityGroup {
  readonly id: string;
  readonly name?: string;
}

/**
 * What an EC2NodeClass's selectors resolved to in the cloud, and why a list came out empty or
 * a field is unusable. Status is a pure function of the spec and these facts.
 */
export interface NodeClassFacts {
  readonly subnets: readonly ResolvedSubnet[];
  readonly securityGroups: readonly ResolvedSecurityGroup[];
  readonly amis: readonly ResolvedAmi[];
  readonly instanceProfile?: string;
  /** Set for a `role`: the profile was created for it and holds it; said in the condition message. */
  readonly instanceProfileDerivedFromRole?: string;
  readonly problems: {
    readonly subnets?: string;
    readonly securityGroups?: string;
    readonly amis?: string;
    readonly instanceProfile?: string;
    readonly validation?: string;
  };
}
