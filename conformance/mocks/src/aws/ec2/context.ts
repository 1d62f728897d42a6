import type { Clock } from '@nodewright/core/clock';
import type { AwsFaults } from '../faults/faults.js';
import type { QueryNode } from '../query/form.js';
import type { XmlObject } from '../query/xml.js';
import type { InstanceLifecycle } from './lifecycle.js';
import type { Ec2State } from './state.js';

/** What every EC2 action reads and changes. */
export interface Ec2Context {
  readonly state: Ec2State;
  readonly lifecycle: InstanceLifecycle;
  readonly faults: AwsFaults;
  readonly clock: Clock;
  readonly accountId: string;
  /**
   * Whether IAM knows an instance profile of this name (launches naming another fail as in
   * EC2); undefined accepts any.
   */
  readonly instanceProfileExists?: (name: string) => boolean;
}

/** One EC2 action: the decoded request in, the response body (under the action's element) out. */
export type Ec2Action = (request: QueryNode, ctx: Ec2Context) => XmlObject;
