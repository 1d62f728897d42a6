import { vi } from 'vitest';
import { describeProviderContract } from '../provider-contract/describe-provider-contract.js';
import { awsHarness } from './aws-harness.js';

// The provider contract for AWS in the unit project: the real SDK clients against a fresh AWS
// mock per test, on a MemoryCluster, so a provider change gets the whole contract without a
// control plane (or Go) in the fast loop. The same harness runs on kube-apiserver, where the
// EC2NodeClass also meets the CRD's schema and the status subresource, in
// conformance/suite/provider-contract-aws.integration.test.ts. SDK retries wait up to seconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describeProviderContract(awsHarness({ name: 'aws (SDK against the AWS mock, memory cluster)' }));
