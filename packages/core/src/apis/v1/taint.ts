import { z } from 'zod';
import { type PairedRule, withRules } from '../common/cel.js';
import { dateTime, labelValue, qualifiedName } from '../common/primitives.js';

export const TaintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
export type TaintEffect = (typeof TaintEffects)[number];

/**
 * Most taints in `taints` or `startupTaints`. Upstream sets no bound; the API server needs
 * one to estimate the cost of the duplicate check.
 */
export const MaxTaints = 100;

/** A node taint: a qualified-name key, an optional label-value value, and an effect. */
export const taintSchema = z
  .strictObject({
    key: qualifiedName({ nonEmpty: true }).describe('The taint key.'),
    value: labelValue().optional().describe('The taint value.'),
    effect: z
      .enum(TaintEffects, { error: `must be one of ${TaintEffects.join(', ')}` })
      .describe(
        'What happens to pods that do not tolerate the taint: NoSchedule, PreferNoSchedule or NoExecute.',
      ),
    timeAdded: dateTime().optional().describe('When the taint was added (NoExecute taints only).'),
  })
  .describe('A taint the node is created with.');
export type Taint = z.output<typeof taintSchema>;

const DuplicateMessage = 'must not repeat a taint with the same key and effect';

/** Index of each taint whose key and effect an earlier one in `taints` already has. */
function duplicates(taints: readonly Taint[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  taints.forEach((t, i) => {
    const id = `${t.key}\u0000${t.effect}`;
    if (seen.has(id)) out.push(i);
    seen.add(id);
  });
  return out;
}

/** A list of taints in which no key and effect pair appears twice. */
export const taintsSchema = withRules(
  z
    .array(taintSchema)
    .max(MaxTaints, `must have at most ${MaxTaints} taints`)
    .meta({ 'x-kubernetes-list-type': 'atomic' }),
  [
    {
      cel: {
        rule: 'self.all(t, self.exists_one(u, u.key == t.key && u.effect == t.effect))',
        message: DuplicateMessage,
      },
      check: (taints) => duplicates(taints).map((i) => ({ path: [i] })),
    },
  ],
);

interface WithTaints {
  taints?: Taint[] | undefined;
  startupTaints?: Taint[] | undefined;
}

/** A startup taint may not repeat a key and effect of a regular taint. */
export const StartupTaintRule: PairedRule<WithTaints> = {
  cel: {
    rule: '!has(self.taints) || !has(self.startupTaints) || self.startupTaints.all(s, !self.taints.exists(t, t.key == s.key && t.effect == s.effect))',
    message: 'startupTaints must not repeat the key and effect of a taint in taints',
    fieldPath: '.startupTaints',
  },
  check: (spec) => {
    const seen = new Set((spec.taints ?? []).map((t) => `${t.key}\u0000${t.effect}`));
    return (spec.startupTaints ?? []).flatMap((t, i) =>
      seen.has(`${t.key}\u0000${t.effect}`) ? [{ path: ['startupTaints', i] }] : [],
    );
  },
};
