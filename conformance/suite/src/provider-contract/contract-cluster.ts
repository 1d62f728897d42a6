import { generateCrd, type KindDefinition } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import {
  ClientNodeCluster,
  type KubeObject,
  kubeConfigFromFile,
  type ResourceType,
  resourceType,
  silentLogger,
} from '@nodewright/core/kube';
import { waitUntil } from '../wait-until.js';

const CustomResourceDefinitions = resourceType({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  statusSubresource: true,
});

/** What a provider-contract run on a real control plane needs installed. */
export interface ContractClusterOptions {
  readonly kubeconfigPath: string;
  /** Field manager of the CRD applies and of every write the fixtures make. */
  readonly fieldManager: string;
  /** The provider's NodeClass kinds: their CRDs are applied (server-side) first. */
  readonly nodeClassKinds: readonly KindDefinition[];
  /** The same kinds as resource types: each is listed until the API server serves it. */
  readonly nodeClassTypes: readonly ResourceType[];
  /** How long a freshly Established CRD may take to be served. Default 60 s. */
  readonly servedTimeoutMs?: number;
}

/**
 * The cluster port for a provider contract on a real API server: a ClientNodeCluster on the
 * kubeconfig, with the provider's NodeClass CRDs applied and served (a CRD answers a moment
 * after it reports Established). Fixtures then share it under names of their own. Close it
 * when the file is done.
 */
export async function contractCluster(options: ContractClusterOptions): Promise<ClientNodeCluster> {
  const cluster = new ClientNodeCluster({
    kubeConfig: await kubeConfigFromFile(options.kubeconfigPath),
    fieldManager: options.fieldManager,
    logger: silentLogger,
    clock: new SystemClock(),
    timers: new SystemTimers(),
  });
  try {
    for (const kind of options.nodeClassKinds) {
      await cluster.apply(CustomResourceDefinitions, generateCrd(kind) as unknown as KubeObject, {
        fieldManager: options.fieldManager,
        force: true,
      });
    }
    for (const type of options.nodeClassTypes) {
      // The probe answers the list error while there is one, so a timeout quotes it.
      await waitUntil(
        () =>
          cluster.list(type).then(
            () => undefined,
            (err: unknown) => (err instanceof Error ? err.message : String(err)),
          ),
        (error) => error === undefined,
        { timeoutMs: options.servedTimeoutMs ?? 60_000, intervalMs: 250, what: `${type.kind} to be served` },
      );
    }
  } catch (err) {
    cluster.close();
    throw err;
  }
  return cluster;
}
