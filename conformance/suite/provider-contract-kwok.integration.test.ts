import { contractCluster, describeProviderContract } from '@nodewright/conformance';
import { Labels } from '@nodewright/core/apis';
import { type ClientNodeCluster, Nodes } from '@nodewright/core/kube';
import { KWOKNodeClasses, type KwokNode, kwokNodeClassKind } from '@nodewright/kwok';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ContractClaims } from './src/provider-contract/contract-claims.js';
import { kwokHarness } from './src/providers/kwok-harness.js';
import { ConformanceReportDir } from './src/providers/report-dir.js';

// The provider contract for KWOK on the real control plane the integration globalSetup starts:
// Nodes are created through ClientNodeCluster, and kwok (which manages the annotated ones) keeps
// them Ready. Fixtures share the cluster under their own names.

let cluster: ClientNodeCluster | undefined;

beforeAll(async () => {
  cluster = await contractCluster({
    kubeconfigPath: inject('nodewrightCluster').kubeconfigPath,
    fieldManager: 'provider-contract-kwok',
    nodeClassKinds: [kwokNodeClassKind],
    nodeClassTypes: [KWOKNodeClasses],
  });
});

afterAll(() => {
  cluster?.close();
});

describeProviderContract(
  kwokHarness({
    name: 'kwok (kube-apiserver + kwok)',
    cluster: async () => {
      if (cluster === undefined) throw new Error('the cluster port is built in beforeAll');
      return cluster;
    },
  }),
  { report: { dir: ConformanceReportDir } },
);

describe('kwok provider on kube-apiserver + kwok', () => {
  const harness = kwokHarness({
    name: 'kwok',
    cluster: async () => {
      if (cluster === undefined) throw new Error('the cluster port is built in beforeAll');
      return cluster;
    },
  });

  it('a launched Node is kept Ready by kwok, with the capacity, labels and unregistered taint it was created with', async () => {
    const fx = await harness.setup();
    try {
      const created = await fx.provider.create(new ContractClaims(fx.nodePool).claim());
      const name = created.metadata.name ?? '';
      let node: (KwokNode & { status?: { conditions?: { type: string; status: string }[] } }) | undefined;
      const deadline = Date.now() + 60_000;
      for (;;) {
        node = (await cluster!.get(Nodes, { name })) as typeof node;
        if (node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) break;
        if (Date.now() > deadline) throw new Error(`Node ${name} never turned Ready`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(node?.status?.capacity).toEqual(created.status?.capacity);
      expect(node?.status?.allocatable).toEqual(created.status?.allocatable);
      expect(node?.metadata.labels?.[Labels.InstanceType]).toBe(
        created.metadata.labels?.[Labels.InstanceType],
      );
      expect(node?.spec?.taints).toContainEqual({ key: 'karpenter.sh/unregistered', effect: 'NoExecute' });
    } finally {
      await fx.teardown();
    }
  });
});
