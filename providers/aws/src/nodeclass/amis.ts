import type { DescribeImagesCommandInput, Filter, Image } from '@aws-sdk/client-ec2';
import { canonicalJson } from '@nodewright/core/apis';
import type { EC2NodeClassSpec } from '../apis/index.js';
import { AliasImageOwner, type AmiRequirement, aliasImageQueries, VariantRequirements } from './aliases.js';
import { describeTags, tagFilters } from './filters.js';

type AmiTerm = EC2NodeClassSpec['amiSelectorTerms'][number];

/** One DescribeImages call for the AMI selector terms, and how to read its images. */
export interface AmiQuery {
  readonly input: DescribeImagesCommandInput;
  /** What the term asked for, for "matched nothing" messages. */
  readonly describes: string;
  /** An `id` term: its images are used even when deprecated. */
  readonly pinned: boolean;
  /** Alias queries only accept images of this architecture. */
  readonly architecture?: 'x86_64' | 'arm64';
  /** Requirement sets beyond the architecture; one entry per set (several: one AMI entry each). */
  readonly requirementSets: readonly (readonly AmiRequirement[])[];
}

const available: Filter = { Name: 'state', Values: ['available'] };

/**
 * The DescribeImages queries for amiSelectorTerms. An alias expands to its EKS image name
 * patterns (owner amazon); `id` terms share one `image-id` query that includes deprecated
 * images; name/owner/tags terms are one query each, owners defaulting to self and amazon when
 * a name is given (so a name never picks up someone else's public image). `ssmParameter` terms
 * are returned as parameter names: the caller reads each (SSM GetParameter) and queries the image
 * it names with ssmImageQuery.
 */
export function amiQueries(
  terms: readonly AmiTerm[],
  kubernetesVersion: string,
): { queries: AmiQuery[]; ssmParameters: string[] } {
  const queries: AmiQuery[] = [];
  const ssmParameters: string[] = [];
  const ids: string[] = [];
  for (const term of terms) {
    if (term.alias !== undefined) {
      for (const q of aliasImageQueries(term.alias, kubernetesVersion)) {
        queries.push({
          input: {
            Owners: [AliasImageOwner],
            Filters: [{ Name: 'name', Values: [q.namePattern] }, available],
          },
          describes: `alias ${term.alias} (Kubernetes ${kubernetesVersion}: ${q.namePattern})`,
          pinned: false,
          architecture: q.architecture,
          requirementSets: q.variants.map((v) => [...VariantRequirements[v], ...q.extra]),
        });
      }
    } else if (term.id !== undefined) {
      ids.push(term.id);
    } else if (term.ssmParameter !== undefined) {
      ssmParameters.push(term.ssmParameter);
    } else {
      const owners =
        term.owner !== undefined ? [term.owner] : term.name !== undefined ? ['self', 'amazon'] : [];
      const filters: Filter[] = [
        ...(term.name !== undefined ? [{ Name: 'name', Values: [term.name] }] : []),
        ...tagFilters(term.tags),
        available,
      ];
      const describes = [
        term.name !== undefined ? `name ${term.name}` : '',
        term.owner !== undefined ? `owner ${term.owner}` : '',
        term.tags !== undefined ? describeTags(term.tags) : '',
      ]
        .filter((d) => d !== '')
        .join(' and ');
      queries.push({
        input: { ...(owners.length > 0 ? { Owners: owners } : {}), Filters: filters },
        describes,
        pinned: false,
        requirementSets: [[]],
      });
    }
  }
  if (ids.length > 0) {
    queries.unshift({
      input: { Filters: [{ Name: 'image-id', Values: ids }, available], IncludeDeprecated: true },
      describes: `id ${ids.join(', ')}`,
      pinned: true,
      requirementSets: [[]],
    });
  }
  return { queries, ssmParameters };
}

/**
 * The DescribeImages query for the image an SSM parameter names (its value, `ami-...`): like an
 * `id` term, the image is used even when deprecated, since the parameter picked it.
 */
export function ssmImageQuery(parameter: string, imageId: string): AmiQuery {
  return {
    input: { Filters: [{ Name: 'image-id', Values: [imageId] }, available], IncludeDeprecated: true },
    describes: `ssmParameter ${parameter} (${imageId})`,
    pinned: true,
    requirementSets: [[]],
  };
}

/** An AMI a NodeClass may launch, with the instance types it suits. */
export interface ResolvedAmi {
  readonly id: string;
  readonly name?: string;
  readonly deprecated?: boolean;
  readonly requirements: AmiRequirement[];
  readonly creationDate?: string;
}

const KubeArchitecture: Readonly<Record<string, string>> = { x86_64: 'amd64', arm64: 'arm64' };

/** Whether the image's DeprecationTime has passed. */
export function isDeprecated(image: Pick<Image, 'DeprecationTime'>, now: number): boolean {
  if (image.DeprecationTime === undefined) return false;
  const at = Date.parse(image.DeprecationTime);
  return Number.isFinite(at) && at <= now;
}

const time = (date: string | undefined) => {
  const t = date === undefined ? Number.NaN : Date.parse(date);
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
};

/** Upstream's order: not deprecated first, then newer CreationDate, then the larger name. */
function better(a: ResolvedAmi, b: ResolvedAmi): boolean {
  if ((a.deprecated ?? false) !== (b.deprecated ?? false)) return !a.deprecated;
  const ta = time(a.creationDate);
  const tb = time(b.creationDate);
  if (ta !== tb) return ta > tb;
  return (a.name ?? '') > (b.name ?? '');
}

/**
 * The AMIs to use from what the queries found: each image yields one entry per requirement set
 * (kubernetes.io/arch from its architecture, plus the set), and per distinct requirements only
 * the best image is kept — not deprecated before deprecated, then the newest CreationDate, as
 * upstream. Deprecated images are dropped unless an `id` term pinned them; images of an
 * architecture other than x86_64/arm64, or not the one an alias query asked for, are ignored.
 * Sorted by name, then id.
 */
export function selectAmis(
  found: ReadonlyArray<{ query: AmiQuery; images: readonly Image[] }>,
  now: number,
): ResolvedAmi[] {
  const best = new Map<string, ResolvedAmi>();
  for (const { query, images } of found) {
    for (const image of images) {
      const arch = image.Architecture === undefined ? undefined : KubeArchitecture[image.Architecture];
      if (image.ImageId === undefined || arch === undefined) continue;
      if (query.architecture !== undefined && image.Architecture !== query.architecture) continue;
      const deprecated = isDeprecated(image, now);
      if (deprecated && !query.pinned) continue;
      for (const set of query.requirementSets) {
        const requirements = [
          { key: 'kubernetes.io/arch', operator: 'In' as const, values: [arch] },
          ...set,
        ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        const candidate: ResolvedAmi = {
          id: image.ImageId,
          ...(image.Name !== undefined ? { name: image.Name } : {}),
          ...(deprecated ? { deprecated: true } : {}),
          requirements,
          ...(image.CreationDate !== undefined ? { creationDate: image.CreationDate } : {}),
        };
        const key = canonicalJson(requirements);
        const current = best.get(key);
        if (current === undefined || better(candidate, current)) best.set(key, candidate);
      }
    }
  }
  return [...best.values()].sort((a, b) =>
    (a.name ?? '') < (b.name ?? '')
      ? -1
      : (a.name ?? '') > (b.name ?? '')
        ? 1
        : a.id < b.id
          ? -1
          : a.id > b.id
            ? 1
            : 0,
  );
}
