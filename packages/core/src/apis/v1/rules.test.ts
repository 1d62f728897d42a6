import { describe, expect, test } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { type NodeClaim, nodeClaimSchema } from './nodeclaim.js';
import { type NodePool, nodePoolSchema } from './nodepool.js';
import { nodeClaimRuleCases, nodePoolRuleCases, type RuleCase } from './rule-cases.js';
import { validateNodeClaimUpdate, validateNodePoolUpdate } from './update.js';

function errorsOf(schema: typeof nodePoolSchema | typeof nodeClaimSchema, value: unknown) {
  const result = schema.safeParse(value);
  return result.success
    ? []
    : fieldErrors(result.error.issues).map(({ path, message }) => ({ path, message }));
}

function parse<T>(schema: { parse: (v: unknown) => T }, value: unknown): T {
  return schema.parse(value);
}

function check(kind: 'NodePool' | 'NodeClaim', cases: readonly RuleCase[]) {
  const schema = kind === 'NodePool' ? nodePoolSchema : nodeClaimSchema;
  const update = (old: unknown, next: unknown) =>
    kind === 'NodePool'
      ? validateNodePoolUpdate(parse<NodePool>(nodePoolSchema, old), parse<NodePool>(nodePoolSchema, next))
      : validateNodeClaimUpdate(
          parse<NodeClaim>(nodeClaimSchema, old),
          parse<NodeClaim>(nodeClaimSchema, next),
        );
  describe.each(cases)(`${kind}: $rule`, (c) => {
    test('the valid example passes', () => {
      expect(errorsOf(schema, c.valid)).toEqual([]);
      if (c.old !== undefined) expect(update(c.old, c.valid)).toEqual([]);
    });
    test('the invalid example fails at its path with its message', () => {
      if (c.old === undefined) {
        expect(errorsOf(schema, c.invalid)).toContainEqual({ path: c.path, message: c.message });
      } else {
        expect(errorsOf(schema, c.invalid)).toEqual([]);
        expect(update(c.old, c.invalid).map(({ path, message }) => ({ path, message }))).toEqual([
          { path: c.path, message: c.message },
        ]);
      }
    });
  });
}

check('NodePool', nodePoolRuleCases);
check('NodeClaim', nodeClaimRuleCases);

test('an invalid example breaks only its own rule', () => {
  for (const c of [...nodePoolRuleCases, ...nodeClaimRuleCases].filter((c) => c.old === undefined)) {
    const schema = (c.invalid as { kind: string }).kind === 'NodePool' ? nodePoolSchema : nodeClaimSchema;
    const errors = errorsOf(schema, c.invalid);
    expect(errors, c.rule).toHaveLength(1);
  }
});
