import { describe, expect, it } from 'vitest';
import { ControllerNodeFlags, missingNodeFlags } from './node-flags.js';

describe('missingNodeFlags', () => {
  it('adds every default flag to a plain `node bin.js controller`', () => {
    expect(missingNodeFlags(ControllerNodeFlags, [], undefined)).toEqual([...ControllerNodeFlags]);
    expect(missingNodeFlags(ControllerNodeFlags, [], '')).toEqual([...ControllerNodeFlags]);
  });

  it('adds nothing once the process runs with them (no second re-execution)', () => {
    expect(missingNodeFlags(ControllerNodeFlags, [...ControllerNodeFlags], undefined)).toEqual([]);
  });

  it("keeps the user's own value, given as a node argument or in NODE_OPTIONS, in either spelling", () => {
    const wanted = ['--max-semi-space-size=8', '--max-old-space-size=512'];
    expect(missingNodeFlags(wanted, ['--max-semi-space-size=32'], undefined)).toEqual([
      '--max-old-space-size=512',
    ]);
    expect(missingNodeFlags(wanted, [], '--enable-source-maps  --max_old_space_size=2048')).toEqual([
      '--max-semi-space-size=8',
    ]);
    expect(
      missingNodeFlags(wanted, ['--inspect'], '--max-semi-space-size=4 --max-old-space-size=100'),
    ).toEqual([]);
  });
});
