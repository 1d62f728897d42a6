import { vi } from 'vitest';
import { describeProviderContract } from '../provider-contract/describe-provider-contract.js';
import { azureHarness } from './azure-harness.js';

// The provider contract for Azure in the unit project: the real @azure/arm-compute and
// @azure/arm-network clients against a fresh ARM mock (TLS) per test, on a MemoryCluster. The
// same harness runs on kube-apiserver in conformance/suite/provider-contract-azure.integration.test.ts.
// A throttled call waits Retry-After (1 s) plus backoff.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describeProviderContract(azureHarness({ name: 'azure (SDK against the ARM mock, memory cluster)' }));
