import type { KindDefinition } from '@nodewright/core/apis';

/** The REST paths of a cluster-scoped custom resource kind and of its CRD. */
export interface ResourcePaths {
  /** `<plural>.<group>`, the CRD's name. */
  readonly crdName: string;
  readonly crd: string;
  /** Server-side apply of the CRD: `?fieldManager=<manager>&force=true`, as `kubectl apply --server-side --force-conflicts`. */
  readonly applyCrd: (fieldManager: string) => string;
  /** `/apis/<group>/<version>`, the discovery document listing the resource. */
  readonly groupVersion: string;
  readonly collection: string;
  readonly object: (name: string) => string;
  readonly status: (name: string) => string;
  readonly scale: (name: string) => string;
}

/**
 * The paths of a kind nodewright ships a CRD for.
 *
 * @throws if the kind has no CRD description or is namespaced (nodewright's kinds are not).
 */
export function resourcePaths(kind: KindDefinition): ResourcePaths {
  const crd = kind.crd;
  if (crd === undefined) throw new Error(`${kind.kind} has no CRD description`);
  if (kind.namespaced) throw new Error(`${kind.kind} is namespaced; only cluster-scoped kinds are supported`);
  const crdName = `${crd.plural}.${crd.group}`;
  const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`;
  const groupVersion = `/apis/${crd.group}/${crd.version}`;
  const collection = `${groupVersion}/${crd.plural}`;
  const object = (name: string) => `${collection}/${encodeURIComponent(name)}`;
  return {
    crdName,
    crd: crdPath,
    applyCrd: (manager) => `${crdPath}?fieldManager=${encodeURIComponent(manager)}&force=true`,
    groupVersion,
    collection,
    object,
    status: (name) => `${object(name)}/status`,
    scale: (name) => `${object(name)}/scale`,
  };
}
