import { mkdir, writeFile } from 'node:fs/promises';
import { ec2NodeClassKind, ec2NodeClassV1beta1Converter } from '@nodewright/aws';
import {
  type Converter,
  convertManifests,
  crdFileName,
  instanceTypeCatalogKind,
  KindRegistry,
  kubernetesKinds,
  nodeClaimKind,
  nodePoolKind,
  nodePoolV1beta1Converter,
  renderCrdYaml,
} from '@nodewright/core/apis';
import { nodeManifestFs } from '@nodewright/core/manifests';
import { kwokNodeClassKind } from '@nodewright/kwok';
import { gcpCliKinds } from './gcp-registration.js';
import type { CliServices } from './services.js';

/**
 * The CLI's composition root: the kinds it knows (Kubernetes built-ins, nodewright's own
 * kinds, and each provider's NodeClass), the converters `convert` applies, and the real file
 * system. Provider packages contribute their kinds here and nowhere else.
 */
export function createCliServices(): CliServices {
  const registry = new KindRegistry([
    ...kubernetesKinds,
    nodePoolKind,
    nodeClaimKind,
    instanceTypeCatalogKind,
    ec2NodeClassKind,
    kwokNodeClassKind,
    ...gcpCliKinds,
  ]);
  const converters: readonly Converter[] = [nodePoolV1beta1Converter, ec2NodeClassV1beta1Converter];
  return {
    registry,
    convert: (objects) => convertManifests(objects, converters),
    unsupportedVersionHint: (apiVersion, kind) => convertHint(converters, apiVersion, kind),
    renderCrd: (definition) => renderCrdYaml(definition),
    crdFileName: (definition) => crdFileName(definition),
    fs: {
      ...nodeManifestFs,
      mkdirp: async (path) => {
        await mkdir(path, { recursive: true });
      },
      writeFile: (path, text) => writeFile(path, text, 'utf8'),
    },
  };
}

/** Points users of an old apiVersion at `nodewright convert` when a converter handles it. */
function convertHint(converters: readonly Converter[], apiVersion: string, kind: string): string | undefined {
  const sources = converters.filter((c) => c.from.kind === kind).map((c) => c.from.apiVersion);
  if (sources.includes(apiVersion)) return 'run nodewright convert to upgrade it';
  if (sources.length > 0) return `run nodewright convert for ${sources.join(', ')}`;
  return undefined;
}
