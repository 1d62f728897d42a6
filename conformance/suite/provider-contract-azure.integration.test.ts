import { AKSNodeClasses, aksNodeClassKind } from '@nodewright/azure';
import { contractCluster, describeProviderContract } from '@nodewright/conformance';
import type { KindDefinition } from '@nodewright/core/apis';
import type { ClientNodeCluster } from '@nodewright/core/kube';
import { afterAll, beforeAll, inject } from 'vitest';
import { azureHarness } from './src/providers/azure-harness.js';
import { ConformanceReportDir } from './src/providers/report-dir.js';

// The provider contract for Azure on the real control plane the integration globalSetup starts:
// the real @azure/arm-compute and @azure/arm-network clients against a fresh ARM mock per test,
// and the AKSNodeClass in kube-apiserver (the committed CRD's schema and CEL rules, the status
// subresource) made Ready by the real aksnodeclass.status controller through ClientNodeCluster.
// The same harness runs on a MemoryCluster in the unit project
// (src/providers/azure-provider-contract.test.ts).

let cluster: ClientNodeCluster | undefined;

beforeAll(async () => {
  cluster = await contractCluster({
    kubeconfigPath: inject('nodewrightCluster').kubeconfigPath,
    fieldManager: 'provider-contract-azure',
    nodeClassKinds: [aksNodeClassKind as KindDefinition],
    nodeClassTypes: [AKSNodeClasses],
  });
});

afterAll(() => {
  cluster?.close();
});

describeProviderContract(
  azureHarness({
    name: 'azure (SDK against the ARM mock, kube-apiserver)',
    cluster: async () => {
      if (cluster === undefined) throw new Error('the cluster port is built in beforeAll');
      return cluster;
    },
  }),
  { report: { dir: ConformanceReportDir } },
);
