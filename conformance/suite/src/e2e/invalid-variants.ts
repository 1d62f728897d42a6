/** A NodePool the API server must refuse, and what its answer must say. */
export interface InvalidVariant {
  /** What is wrong, in words (names the test). */
  readonly problem: string;
  readonly manifest: Record<string, unknown>;
  /** The field the server's cause must name (`spec.weight`, `spec.template.spec.requirements`...). */
  readonly field: string;
  /** A fragment of the message a user reads. */
  readonly message: RegExp;
}

type Json = Record<string, unknown>;

function at(object: Json, path: readonly string[]): Json {
  let here = object;
  for (const key of path) {
    const next = here[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      const created: Json = {};
      here[key] = created;
      here = created;
    } else {
      here = next as Json;
    }
  }
  return here;
}

function variant(
  base: Json,
  problem: string,
  field: string,
  message: RegExp,
  change: (copy: Json) => void,
): InvalidVariant {
  const manifest = structuredClone(base);
  change(manifest);
  return { problem, manifest, field, message };
}

/**
 * Invalid variants of a valid NodePool manifest, one rule each, covering the schema kinds the
 * CRD enforces: an enum, a numeric bound, a pattern, and CEL rules on requirements, labels and
 * budgets. Each is the example with exactly one thing broken, so a refusal can only be about
 * that.
 */
export function invalidNodePoolVariants(nodePool: Json): InvalidVariant[] {
  const templateSpec = ['spec', 'template', 'spec'];
  const requirements = (copy: Json): unknown[] => {
    const spec = at(copy, templateSpec);
    if (!Array.isArray(spec.requirements)) spec.requirements = [];
    return spec.requirements as unknown[];
  };
  return [
    variant(
      nodePool,
      'a requirement operator outside the eight',
      'spec.template.spec.requirements',
      /Unsupported value: "Equals"/,
      (c) => {
        requirements(c).push({ key: 'example.com/team', operator: 'Equals', values: ['a'] });
      },
    ),
    variant(
      nodePool,
      'a requirement on the restricted karpenter.sh/nodepool label',
      'spec.template.spec.requirements',
      /label "karpenter\.sh\/nodepool" is restricted/,
      (c) => {
        requirements(c).push({ key: 'karpenter.sh/nodepool', operator: 'In', values: ['other'] });
      },
    ),
    variant(
      nodePool,
      'an In requirement without values',
      'spec.template.spec.requirements',
      /operator In needs at least one value/,
      (c) => {
        requirements(c).push({ key: 'example.com/team', operator: 'In', values: [] });
      },
    ),
    variant(nodePool, 'weight above 100', 'spec.weight', /should be less than or equal to 100/, (c) => {
      at(c, ['spec']).weight = 101;
    }),
    variant(
      nodePool,
      'a budget that is neither a count nor a percentage',
      'spec.disruption.budgets[0].nodes',
      /should match/,
      (c) => {
        at(c, ['spec', 'disruption']).budgets = [{ nodes: 'ten' }];
      },
    ),
    variant(
      nodePool,
      'consolidateAfter that is not a duration',
      'spec.disruption.consolidateAfter',
      /should match/,
      (c) => {
        at(c, ['spec', 'disruption']).consolidateAfter = 'soon';
      },
    ),
    variant(
      nodePool,
      'a template label in the restricted karpenter.sh domain',
      'spec.template.metadata.labels',
      /label domain "karpenter\.sh" is restricted/,
      (c) => {
        at(c, ['spec', 'template', 'metadata', 'labels'])['karpenter.sh/custom'] = 'x';
      },
    ),
  ];
}
