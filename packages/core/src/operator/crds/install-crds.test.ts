import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { coreCrdKinds } from '../../apis/v1/kinds.js';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import { CustomResourceDefinitions } from './crd-type.js';
import { crdEstablished } from './established.js';
import { ensureCrds } from './install-crds.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const NAMES = ['nodepools.karpenter.sh', 'nodeclaims.karpenter.sh'];

function setup() {
  const clock = new FakeClock(T0);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock, kinds: [CustomResourceDefinitions] });
  const deps = { cluster, clock, timers, logger: pino({ level: 'silent' }) };
  const establish = (name: string) =>
    cluster.patchStatus(
      CustomResourceDefinitions,
      { name },
      {
        status: { conditions: [{ type: 'Established', status: 'True' }] },
      },
    );
  return { clock, timers, cluster, deps, establish };
}

describe('crdEstablished', () => {
  it('reads the Established and NamesAccepted conditions', () => {
    const crd = (conditions: { type: string; status: string; message?: string }[]) => ({
      metadata: { name: 'x' },
      status: { conditions },
    });
    expect(crdEstablished(crd([{ type: 'Established', status: 'True' }]))).toEqual({ ok: true });
    expect(crdEstablished(crd([]))).toEqual({ ok: false, reason: 'no Established condition yet' });
    expect(
      crdEstablished(
        crd([{ type: 'NamesAccepted', status: 'False', message: 'plural "x" is already in use' }]),
      ),
    ).toEqual({ ok: false, reason: 'names not accepted: plural "x" is already in use' });
  });
});

describe('ensureCrds', () => {
  it('install: applies each CRD with the nodewright field manager and waits until Established', async () => {
    const { deps, cluster, timers, establish } = setup();
    let done = false;
    const result = ensureCrds(deps, { kinds: coreCrdKinds, mode: 'install' }).then((names) => {
      done = true;
      return names;
    });
    await timers.advance(1_000, () => new Promise((r) => setImmediate(r)));
    expect(done).toBe(false);
    const applied = await cluster.list(CustomResourceDefinitions);
    expect(applied.items.map((c) => c.metadata.name).sort()).toEqual([...NAMES].sort());
    expect(applied.items[0]!.metadata.managedFields?.map((m) => m.manager)).toContain('nodewright');
    for (const name of NAMES) await establish(name);
    await timers.advance(1_000, () => new Promise((r) => setImmediate(r)));
    expect(await result).toEqual(NAMES);
  });

  it('check: a missing CRD is an error naming it and the fix', async () => {
    const { deps } = setup();
    await expect(ensureCrds(deps, { kinds: coreCrdKinds, mode: 'check' })).rejects.toThrow(
      'CustomResourceDefinition nodepools.karpenter.sh is not installed (run with --install-crds=true',
    );
  });

  it('gives up after the timeout naming the CRDs and why', async () => {
    const { deps, timers, establish } = setup();
    const result = ensureCrds(deps, { kinds: coreCrdKinds, mode: 'install', timeoutMs: 5_000 });
    const caught = result.catch((e: Error) => e);
    await timers.advance(100, () => new Promise((r) => setImmediate(r)));
    await establish('nodepools.karpenter.sh');
    await timers.advance(6_000, () => new Promise((r) => setImmediate(r)));
    const err = await caught;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      'CustomResourceDefinitions not Established after 5000 ms: nodeclaims.karpenter.sh (no Established condition yet)',
    );
  });
});
