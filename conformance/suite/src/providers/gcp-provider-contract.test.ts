import { vi } from 'vitest';
import { describeProviderContract } from '../provider-contract/describe-provider-contract.js';
import { gcpHarness } from './gcp-harness.js';

// The provider contract for GCP in the unit project: the real @google-cloud/compute clients
// against a fresh Compute Engine mock per test, on a MemoryCluster. The same harness runs on
// kube-apiserver in conformance/suite/provider-contract-gcp.integration.test.ts.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describeProviderContract(gcpHarness({ name: 'gcp (SDK against the GCE mock, memory cluster)' }));
