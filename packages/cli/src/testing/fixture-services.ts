import { mkdir, writeFile } from 'node:fs/promises';
import type { ConversionWarning } from '@nodewright/core/apis';
import { KindRegistry } from '@nodewright/core/apis';
import { nodeManifestFs } from '@nodewright/core/manifests';
import { z } from 'zod';
import type { CliServices } from '../services.js';

/**
 * Small stand-in kinds, so tests of the commands' mechanics do not depend on the details of
 * the real schemas. `Widget` and `Gadget` have CRDs; `example.com/v1alpha1` Widgets convert to v1 by
 * renaming `spec.size` to `spec.replicas`, warning about a dropped `spec.color`.
 */
export function fixtureServices(): CliServices {
  const metadata = z.object({ name: z.string().min(1), namespace: z.string().optional() });
  const registry = new KindRegistry([
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      namespaced: false,
      schema: z.strictObject({
        apiVersion: z.literal('example.com/v1'),
        kind: z.literal('Widget'),
        metadata,
        spec: z.strictObject({
          replicas: z.number().int().min(0),
          zones: z.array(z.string()).max(2).optional(),
          mode: z.enum(['Fast', 'Slow']).default('Fast'),
        }),
      }),
      crd: { group: 'example.com', version: 'v1', plural: 'widgets', singular: 'widget' },
    },
    {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      namespaced: true,
      schema: z.object({ apiVersion: z.literal('example.com/v1'), kind: z.literal('Gadget'), metadata }),
      crd: { group: 'example.com', version: 'v1', plural: 'gadgets', singular: 'gadget' },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      namespaced: true,
      schema: z.object({ apiVersion: z.literal('v1'), kind: z.literal('Pod'), metadata }),
    },
  ]);
  return {
    registry,
    convert: (objects) => {
      const warnings: ConversionWarning[] = [];
      const converted = objects.map((object) => {
        if (object.apiVersion !== 'example.com/v1alpha1') return object;
        const { size, color, ...spec } = (object.spec ?? {}) as Record<string, unknown>;
        const name = (object.metadata as { name?: string } | undefined)?.name;
        if (color !== undefined) {
          warnings.push({
            object: `Widget/${name}`,
            field: 'spec.color',
            message: 'dropped: v1 has no colors',
          });
        }
        return { ...object, apiVersion: 'example.com/v1', spec: { ...spec, replicas: size } };
      });
      return { objects: converted, warnings };
    },
    unsupportedVersionHint: (apiVersion, kind) =>
      kind === 'Widget' && apiVersion === 'example.com/v1alpha1'
        ? 'run nodewright convert to upgrade it'
        : undefined,
    fieldHint: (manifest, error) =>
      manifest.kind === 'Widget' && error.path === 'spec' && error.message.includes('"size"')
        ? 'v1 calls it spec.replicas'
        : undefined,
    renderCrd: (definition) =>
      `kind: CustomResourceDefinition\nmetadata:\n  name: ${definition.crd?.plural}.${definition.crd?.group}\n`,
    crdFileName: (definition) => `${definition.crd?.group}_${definition.crd?.plural}.yaml`,
    fs: {
      ...nodeManifestFs,
      mkdirp: async (path) => {
        await mkdir(path, { recursive: true });
      },
      writeFile: (path, text) => writeFile(path, text, 'utf8'),
    },
  };
}
