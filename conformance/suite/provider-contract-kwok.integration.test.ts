import { generateCrd } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import {
  ClientNodeCluster,
  type KubeObject,
  kubeConfigFromFile,
  resourceType,
  silentLogger,
} from '@nodewright/core/kube';
import { KWOKNodeClasses, kwokNodeClassKind } from '@nodewright/kwok';
import { afterAll, beforeAll, inject } from 'vitest';
import { describeProviderContract } from './src/provider-contract/describe-provider-contract.js';
import { kwokHarness } from './src/providers/kwok-harness.js';

// The provider contract for KWOK on the real control plane the integration globalSetup starts:
// Nodes are created through ClientNodeCluster, and kwok (which manages the annotated ones) keeps
// them Ready. Fixtures share the cluster under their own names.

const CustomResourceDefinitions = resourceType({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  statusSubresource: true,
});

let cluster: ClientNodeCluster | undefined;

beforeAll(async () => {
  cluster = new ClientNodeCluster({
    kubeConfig: await kubeConfigFromFile(inject('nodewrightCluster').kubeconfigPath),
    fieldManager: 'provider-contract-kwok',
    logger: silentLogger,
    clock: new SystemClock(),
    timers: new SystemTimers(),
  });
  await cluster.apply(CustomResourceDefinitions, generateCrd(kwokNodeClassKind) as unknown as KubeObject, {
    fieldManager: 'provider-contract-kwok',
    force: true,
  });
  // A CRD is served a moment after it is Established.
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await cluster.list(KWOKNodeClasses);
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
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
);
