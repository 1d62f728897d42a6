import type { GCENodeClassInput } from './gcenodeclass.js';

/** A valid GCENodeClass to start tests from; each call returns a fresh object. */
export function exampleGCENodeClass(): GCENodeClassInput {
  return {
    apiVersion: 'karpenter.k8s.gcp/v1alpha1',
    kind: 'GCENodeClass',
    metadata: { name: 'default' },
    spec: {
      serviceAccount: 'nodes@my-project.iam.gserviceaccount.com',
      imageSelectorTerms: [{ alias: 'cos@latest' }],
      networkConfig: { subnetwork: 'regions/us-central1/subnetworks/nodes' },
    },
  };
}
