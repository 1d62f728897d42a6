import { vi } from 'vitest';
import { describeProviderContract } from '../provider-contract/describe-provider-contract.js';
import { awsHarness } from './aws-harness.js';

// The provider contract for AWS: the real SDK clients against a fresh EC2/Pricing/SQS mock per
// test, on a MemoryCluster (no control plane needed). SDK retries back off up to seconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describeProviderContract(awsHarness({ name: 'aws (SDK against the EC2/Pricing/SQS mock, memory cluster)' }));
