import { EC2NodeClasses, ec2NodeClassKind } from '@nodewright/aws';
import { contractCluster, describeProviderContract } from '@nodewright/conformance';
import type { KindDefinition } from '@nodewright/core/apis';
import type { ClientNodeCluster } from '@nodewright/core/kube';
import { afterAll, beforeAll, inject } from 'vitest';
import { awsHarness } from './src/providers/aws-harness.js';
import { ConformanceReportDir } from './src/providers/report-dir.js';

// The provider contract for AWS on the real control plane the integration globalSetup starts:
// the real SDK clients against a fresh EC2/Pricing/SQS/IAM mock per test, and the EC2NodeClass
// in kube-apiserver (the committed CRD's schema and CEL rules, the status subresource) made
// Ready by the real ec2nodeclass.status controller through ClientNodeCluster. Fixtures share the
// cluster under their own names. The same harness runs on a MemoryCluster in the unit project
// (src/providers/aws-provider-contract.test.ts).

let cluster: ClientNodeCluster | undefined;

beforeAll(async () => {
  cluster = await contractCluster({
    kubeconfigPath: inject('nodewrightCluster').kubeconfigPath,
    fieldManager: 'provider-contract-aws',
    nodeClassKinds: [ec2NodeClassKind as KindDefinition],
    nodeClassTypes: [EC2NodeClasses],
  });
});

afterAll(() => {
  cluster?.close();
});

describeProviderContract(
  awsHarness({
    name: 'aws (SDK against the AWS mock, kube-apiserver)',
    cluster: async () => {
      if (cluster === undefined) throw new Error('the cluster port is built in beforeAll');
      return cluster;
    },
  }),
  { report: { dir: ConformanceReportDir } },
);
