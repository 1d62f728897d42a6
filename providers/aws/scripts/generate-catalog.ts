// Writes providers/aws/data/aws-catalog.json, the offline EC2 table behind `--catalog aws` and
// the live provider's static price fallback, from the public tables Karpenter's AWS provider
// generates (aws/karpenter-provider-aws). Those files are read, never committed: only the derived
// table is, with the repository, commit and paths it came from. Run (after `tsc -b`, which the
// package script does) as:
//
//   pnpm --filter @nodewright/aws catalog:generate --commit SHA \
//     --instance-types .../website/content/en/preview/reference/instance-types.md \
//     --vpc-limits .../pkg/providers/instancetype/zz_generated.vpclimits.go \
//     --bandwidth .../pkg/providers/instancetype/zz_generated.bandwidth.go \
//     --pricing .../pkg/providers/pricing/zz_generated.pricing_aws.go \
//     --pricing .../pkg/providers/pricing/zz_generated.pricing_aws_us_gov.go
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  CurrentGenerationRule,
  catalogDataRegions,
  DefaultCatalogDataFile,
  deriveCatalogData,
  parseBandwidth,
  parseInstanceTypesMarkdown,
  parsePriceTable,
  parseVpcLimits,
  serializeCatalogData,
} from '../dist/catalog/index.js';

/** Where each input lives in aws/karpenter-provider-aws, recorded in the table's source note. */
const UpstreamPaths = {
  'instance-types': 'website/content/en/preview/reference/instance-types.md',
  'vpc-limits': 'pkg/providers/instancetype/zz_generated.vpclimits.go',
  bandwidth: 'pkg/providers/instancetype/zz_generated.bandwidth.go',
  pricing: 'pkg/providers/pricing/zz_generated.pricing_aws*.go',
};

// pnpm passes a `--` separator through to the script.
const argv = process.argv.slice(2);
const { values } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    'instance-types': { type: 'string' },
    'vpc-limits': { type: 'string' },
    bandwidth: { type: 'string' },
    pricing: { type: 'string', multiple: true },
    commit: { type: 'string' },
    repository: { type: 'string', default: 'aws/karpenter-provider-aws' },
    out: { type: 'string' },
  },
});

const missing = ['instance-types', 'vpc-limits', 'bandwidth', 'pricing', 'commit'].filter(
  (k) => values[k as keyof typeof values] === undefined,
);
if (missing.length > 0) {
  process.stderr.write(`generate-catalog: missing ${missing.map((m) => `--${m}`).join(', ')}\n`);
  process.exit(2);
}

const read = (file: string) => readFileSync(file, 'utf8');
const vpcText = read(values['vpc-limits']!);
const priceTables = values.pricing!.map((file) => ({ file, table: parsePriceTable(read(file), file) }));
const generatedAt: Record<string, string> = {};
const vpcStamp = /generated at ([0-9T:Z-]+)/.exec(vpcText)?.[1];
if (vpcStamp !== undefined) generatedAt['vpc-limits'] = vpcStamp;
for (const { file, table } of priceTables) {
  if (table.generatedAt !== undefined) generatedAt[file.split('/').at(-1)!] = table.generatedAt;
}

const { data, skipped } = deriveCatalogData({
  instanceTypes: parseInstanceTypesMarkdown(read(values['instance-types']!), values['instance-types']),
  vpcLimits: parseVpcLimits(vpcText, values['vpc-limits']),
  bandwidth: parseBandwidth(read(values.bandwidth!), values.bandwidth),
  prices: priceTables.map((p) => p.table),
  source: {
    repository: `github.com/${values.repository}`,
    commit: values.commit!,
    files: {
      [UpstreamPaths['instance-types']]: 'instance types and their karpenter.k8s.aws/* labels',
      [UpstreamPaths['vpc-limits']]: 'ENIs (default network card) and IPv4 addresses per ENI',
      [UpstreamPaths.bandwidth]: 'baseline network bandwidth, Mbps',
      [UpstreamPaths.pricing]: `on-demand Linux prices, USD/h (${priceTables.map((p) => p.file.split('/').at(-1)).join(', ')})`,
    },
    generatedAt,
    currentGeneration: CurrentGenerationRule,
  },
});

const out = values.out ?? fileURLToPath(DefaultCatalogDataFile);
writeFileSync(out, serializeCatalogData(data));
const byReason = new Map<string, number>();
for (const s of skipped) {
  const key = s.reason.startsWith('previous generation') ? 'previous generation (Xen families)' : s.reason;
  byReason.set(key, (byReason.get(key) ?? 0) + 1);
}
process.stdout.write(
  `wrote ${data.instanceTypes.length} instance types, regions ${catalogDataRegions(data).join(', ')}, to ${out}\n` +
    [...byReason].map(([reason, n]) => `  skipped ${n}: ${reason}\n`).join(''),
);
