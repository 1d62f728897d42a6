import type { KubeObject } from '../../kube/object.js';
import { type ResourceType, resourceType } from '../../kube/resource-type.js';

/** What the operator reads of a CustomResourceDefinition's status. */
export interface CrdObject extends KubeObject {
  spec?: { group?: string; names?: { plural?: string; kind?: string } };
  status?: {
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

/** `apiextensions.k8s.io/v1` CustomResourceDefinitions (cluster-scoped, with status). */
export const CustomResourceDefinitions: ResourceType<CrdObject> = resourceType<CrdObject>({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  statusSubresource: true,
});
