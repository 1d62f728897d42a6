import { mkdir, writeFile } from 'node:fs/promises';
import {
  type Converter,
  convertManifests,
  crdFileName,
  instanceTypeCatalogKind,
  KindRegistry,
  kubernetesKinds,
  migrationHintFor,
  nodeClaimKind,
  nodePoolKind,
  nodePoolV1beta1Converter,
  renderCrdYaml,
} from '@nodewright/core/apis';
import { nodeManifestFs } from '@nodewright/core/manifests';
import type { ProviderPlugin } from '@nodewright/core/plugin';
import type { CliServices } from './services.js';

/**
 * The CLI's composition root: the kinds it knows (Kubernetes built-ins, nodewright's own
 * kinds, and each provider's NodeClass kinds), the converters `convert` applies (core's and the
 * providers'), and the real file system. Providers contribute through their plug-in objects
 * (see providers/builtin-providers.ts and `--provider-module`).
 */
export function createCliServices(providers: readonly ProviderPlugin[]): CliServices {
  const registry = new KindRegistry([
    ...kubernetesKinds,
    nodePoolKind,
    nodeClaimKind,
    instanceTypeCatalogKind,
    ...providers.flatMap((p) => p.kinds),
  ]);
  const converters: readonly Converter[] = [
    nodePoolV1beta1Converter,
    ...providers.flatMap((p) => p.converters ?? []),
  ];
  return {
    registry,
    convert: (objects) => convertManifests(objects, converters),
    unsupportedVersionHint: (apiVersion, kind) => convertHint(converters, apiVersion, kind),
    fieldHint: (manifest, error) =>
      migrationHintFor(
        converters,
        { apiVersion: manifest.apiVersion, kind: manifest.kind, value: manifest.object },
        error.segments,
      ),
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
