import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { InstanceTypeFacts } from '../instancetype/facts.js';

/**
 * The committed offline table, `providers/aws/data/aws-catalog.json`, written by
 * `pnpm --filter @nodewright/aws catalog:generate` (scripts/generate-catalog.ts). Its path is
 * the same from `src/catalog` and `dist/catalog`, so sources and the built package read one file.
 */
export const DefaultCatalogDataFile: URL = new URL('../../data/aws-catalog.json', import.meta.url);

const positive = z.number().positive();
const count = z.number().int().nonnegative();

const rowSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9-]+\.[a-z0-9-]+$/),
  architecture: z.enum(['amd64', 'arm64']),
  vcpus: count,
  memoryMiB: count,
  cpuManufacturer: z.string().optional(),
  hypervisor: z.string().optional(),
  maxENIs: count,
  ipv4PerENI: count,
  networkBandwidthMbps: count.optional(),
  ebsBandwidthMbps: count.optional(),
  encryptionInTransitSupported: z.boolean().optional(),
  localNvmeGB: count.optional(),
  gpu: z
    .strictObject({ name: z.string(), manufacturer: z.string(), count: count, memoryMiB: count })
    .optional(),
  /** AWS Neuron devices (Inferentia, Trainium). */
  neuron: z.strictObject({ name: z.string(), count: count }).optional(),
  /** On-demand Linux price per region, USD per hour; a region without one does not offer the type. */
  prices: z.record(z.string(), positive),
});

const dataSchema = z.strictObject({
  /** Where each fact came from: repository, commit, paths, and each table's own date stamp. */
  source: z.strictObject({
    repository: z.string(),
    commit: z.string(),
    files: z.record(z.string(), z.string()),
    generatedAt: z.record(z.string(), z.string()),
    currentGeneration: z.string(),
  }),
  instanceTypes: z.array(rowSchema),
});

/** One instance type of the offline table. */
export type CatalogRow = z.infer<typeof rowSchema>;
/** The offline table: its provenance and its instance types. */
export type AwsCatalogData = z.infer<typeof dataSchema>;

/**
 * Reads and checks the offline table.
 * @throws Error naming the file and the first field that is wrong.
 */
export function readAwsCatalogData(file: URL | string = DefaultCatalogDataFile): AwsCatalogData {
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path}: cannot read the AWS catalog table: ${(err as Error).message}`);
  }
  const parsed = dataSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** The regions the table prices, sorted. */
export function catalogDataRegions(data: AwsCatalogData): string[] {
  return [...new Set(data.instanceTypes.flatMap((t) => Object.keys(t.prices)))].sort();
}

/** A row as the facts the live provider's capacity, overhead and label functions take. */
export function catalogRowFacts(row: CatalogRow): InstanceTypeFacts {
  const { prices: _prices, gpu, neuron, ...facts } = row;
  return {
    ...facts,
    gpus: gpu === undefined ? [] : [gpu],
    ...(neuron !== undefined ? { neuron } : {}),
    capacityTypes: ['on-demand', 'spot'],
  };
}

/**
 * The table as committed: pretty at the top, one instance type per line so a refresh diffs by
 * type, and the same bytes for the same input.
 */
export function serializeCatalogData(data: AwsCatalogData): string {
  const rows = data.instanceTypes.map((row) => `    ${JSON.stringify(row)}`);
  return `{\n  "source": ${JSON.stringify(data.source, null, 2).replaceAll('\n', '\n  ')},\n  "instanceTypes": [\n${rows.join(',\n')}\n  ]\n}\n`;
}
