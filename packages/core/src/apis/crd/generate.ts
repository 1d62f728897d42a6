import { z } from 'zod';
import type { CrdDescription, KindDefinition, PrinterColumn } from '../kind.js';
import { type SchemaNode, toStructural } from './structural.js';

/** An `apiextensions.k8s.io/v1` CustomResourceDefinition, as far as nodewright writes one. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames?: string[];
      categories?: string[];
    };
    scope: 'Cluster' | 'Namespaced';
    versions: CrdVersion[];
  };
}

export interface CrdVersion {
  name: string;
  served: true;
  storage: true;
  schema: { openAPIV3Schema: SchemaNode };
  subresources?: {
    status?: Record<string, never>;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: PrinterColumn[];
}

const ApiVersionDescription =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.';
const KindDescription =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. In CamelCase.';

/**
 * The CustomResourceDefinition of a kind, built from its zod schema (read as the input a user
 * writes, so defaults are defaults and not required) and its CRD description. The root's
 * `apiVersion`, `kind` and `metadata` are what Kubernetes allows there: plain strings and an
 * object the API server validates itself.
 *
 * @throws if the kind has no `crd` description or its schema cannot be made structural.
 */
export function generateCrd(def: KindDefinition): CustomResourceDefinition {
  const crd = def.crd;
  if (crd === undefined) throw new Error(`${def.apiVersion} ${def.kind} has no CRD description`);
  if (def.apiVersion !== `${crd.group}/${crd.version}`) {
    throw new Error(
      `${def.kind}: apiVersion ${def.apiVersion} does not match the CRD group ${crd.group}/${crd.version}`,
    );
  }
  const json = z.toJSONSchema(def.schema, {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'throw',
  }) as SchemaNode;
  const defs = (json.$defs ?? json.definitions ?? {}) as Record<string, SchemaNode>;
  const root = toStructural({ ...json, properties: rootProperties(json) }, defs);
  root.required = ((root.required as string[] | undefined) ?? []).filter(
    (name) => name !== 'apiVersion' && name !== 'kind' && name !== 'metadata',
  );
  if ((root.required as string[]).length === 0) delete root.required;

  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${crd.plural}.${crd.group}` },
    spec: {
      group: crd.group,
      names: names(def.kind, crd),
      scope: def.namespaced ? 'Namespaced' : 'Cluster',
      versions: [version(crd, root)],
    },
  };
}

function rootProperties(json: SchemaNode): Record<string, SchemaNode> {
  const properties = { ...((json.properties ?? {}) as Record<string, SchemaNode>) };
  properties.apiVersion = { type: 'string', description: ApiVersionDescription };
  properties.kind = { type: 'string', description: KindDescription };
  properties.metadata = { type: 'object' };
  return properties;
}

function names(kind: string, crd: CrdDescription): CustomResourceDefinition['spec']['names'] {
  return {
    kind,
    listKind: `${kind}List`,
    plural: crd.plural,
    singular: crd.singular,
    ...(crd.shortNames?.length ? { shortNames: [...crd.shortNames] } : {}),
    ...(crd.categories?.length ? { categories: [...crd.categories] } : {}),
  };
}

function version(crd: CrdDescription, schema: SchemaNode): CrdVersion {
  const subresources: NonNullable<CrdVersion['subresources']> = {};
  if (crd.subresources?.status) subresources.status = {};
  if (crd.subresources?.scale) subresources.scale = { ...crd.subresources.scale };
  return {
    name: crd.version,
    served: true,
    storage: true,
    ...(crd.printerColumns?.length
      ? { additionalPrinterColumns: crd.printerColumns.map((c) => ({ ...c })) }
      : {}),
    schema: { openAPIV3Schema: schema },
    ...(Object.keys(subresources).length > 0 ? { subresources } : {}),
  };
}

/** The file a kind's CRD is written to: `<group>_<plural>.yaml`, as Karpenter names them. */
export function crdFileName(def: KindDefinition): string {
  if (def.crd === undefined) throw new Error(`${def.apiVersion} ${def.kind} has no CRD description`);
  return `${def.crd.group}_${def.crd.plural}.yaml`;
}
