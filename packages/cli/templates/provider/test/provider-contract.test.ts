import { describeProviderContract } from '@nodewright/conformance';
import { contractHarness } from './harness.js';

// The provider contract: every CloudProvider method against the mock cloud, one test per
// clause. The clause report (which passed) is written to reports/.
describeProviderContract(contractHarness, { report: { dir: 'reports' } });
