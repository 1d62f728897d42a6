import { SystemClock } from '@nodewright/core/clock';
import { MemoryCluster } from '@nodewright/core/kube';
import { KWOKNodeClasses } from '@nodewright/kwok';
import { describeProviderContract } from '../provider-contract/describe-provider-contract.js';
import { kwokHarness } from './kwok-harness.js';

// The contract on the in-memory cluster: fast, in the unit project. The same harness runs on a
// real kube-apiserver in conformance/suite/provider-contract-kwok.integration.test.ts.
describeProviderContract(
  kwokHarness({
    name: 'kwok (memory cluster)',
    cluster: async () => new MemoryCluster({ clock: new SystemClock(), kinds: [KWOKNodeClasses] }),
  }),
);
