import { contractCluster, describeProviderContract } from '@nodewright/conformance';
import type { KindDefinition } from '@nodewright/core/apis';
import type { ClientNodeCluster } from '@nodewright/core/kube';
import { GCENodeClasses, gceNodeClassKind } from '@nodewright/gcp';
import { afterAll, beforeAll, inject } from 'vitest';
import { gcpHarness } from './src/providers/gcp-harness.js';
import { ConformanceReportDir } from './src/providers/report-dir.js';

// The provider contract for GCP on the real control plane the integration globalSetup starts:
// the real @google-cloud/compute clients against a fresh Compute Engine mock per test, and the
// GCENodeClass in kube-apiserver (the committed CRD's schema and CEL rules, the status
// subresource) made Ready by the real gcenodeclass.status controller through ClientNodeCluster.
// The same harness runs on a MemoryCluster in the unit project
// (src/providers/gcp-provider-contract.test.ts).

let cluster: ClientNodeCluster | undefined;

beforeAll(async () => {
  cluster = await contractCluster({
    kubeconfigPath: inject('nodewrightCluster').kubeconfigPath,
    fieldManager: 'provider-contract-gcp',
    nodeClassKinds: [gceNodeClassKind as KindDefinition],
    nodeClassTypes: [GCENodeClasses],
  });
});

afterAll(() => {
  cluster?.close();
});

describeProviderContract(
  gcpHarness({
    name: 'gcp (SDK against the GCE mock, kube-apiserver)',
    cluster: async () => {
      if (cluster === undefined) throw new Error('the cluster port is built in beforeAll');
      return cluster;
    },
  }),
  { report: { dir: ConformanceReportDir } },
);
