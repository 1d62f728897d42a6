import type { Logger } from 'pino';
import { generateCrd } from '../../apis/crd/generate.js';
import type { KindDefinition } from '../../apis/kind.js';
import type { Clock } from '../../clock/clock.js';
import type { Timers } from '../../clock/timers.js';
import { isNotFound } from '../../kube/errors.js';
import type { UntypedObject } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { type CrdObject, CustomResourceDefinitions } from './crd-type.js';
import { crdEstablished } from './established.js';

/** The field manager the operator applies CRDs with. */
const CrdFieldManager = 'nodewright';

/** What ensureCrds is built from. */
export interface EnsureCrdsDependencies {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
}

/** Which CRDs, and whether to install them or only check they exist. */
export interface EnsureCrdsOptions {
  /** Kinds with a `crd` description (others are skipped): core's and the provider's. */
  readonly kinds: readonly KindDefinition[];
  /** `install`: server-side apply each CRD (field manager `nodewright`, forced); `check`: require it. */
  readonly mode: 'install' | 'check';
  /** How long to wait for every CRD to be Established; default 60 s. */
  readonly timeoutMs?: number;
  /** Between status reads; default 250 ms. */
  readonly pollMs?: number;
}

/**
 * Makes sure the API server serves every given kind's CRD before controllers watch them:
 * installs (server-side apply) or checks each one, then waits until all are Established.
 * Throws an error naming the CRD and the reason when one is missing (`check`), cannot be
 * applied, or is not Established in time.
 */
export async function ensureCrds(
  deps: EnsureCrdsDependencies,
  options: EnsureCrdsOptions,
): Promise<string[]> {
  const definitions = options.kinds.filter((k) => k.crd !== undefined).map((k) => generateCrd(k));
  const names = definitions.map((d) => d.metadata.name);
  for (const crd of definitions) {
    const name = crd.metadata.name;
    if (options.mode === 'install') {
      try {
        await deps.cluster.apply(CustomResourceDefinitions, crd as unknown as UntypedObject, {
          fieldManager: CrdFieldManager,
          force: true,
        });
      } catch (err) {
        throw new Error(`CustomResourceDefinition ${name}: cannot apply: ${reason(err)}`, { cause: err });
      }
      deps.logger.info({ crd: name }, 'applied CustomResourceDefinition');
    } else {
      try {
        await deps.cluster.get(CustomResourceDefinitions, { name });
      } catch (err) {
        if (isNotFound(err)) {
          throw new Error(
            `CustomResourceDefinition ${name} is not installed (run with --install-crds=true, or apply "nodewright crds")`,
            { cause: err },
          );
        }
        throw new Error(`CustomResourceDefinition ${name}: cannot read: ${reason(err)}`, { cause: err });
      }
    }
  }
  await waitEstablished(deps, names, options.timeoutMs ?? 60_000, options.pollMs ?? 250);
  return names;
}

async function waitEstablished(
  deps: EnsureCrdsDependencies,
  names: readonly string[],
  timeoutMs: number,
  pollMs: number,
): Promise<void> {
  const deadline = deps.clock.now() + timeoutMs;
  let pending = [...names];
  const reasons = new Map<string, string>();
  for (;;) {
    const still: string[] = [];
    for (const name of pending) {
      let crd: CrdObject;
      try {
        crd = await deps.cluster.get(CustomResourceDefinitions, { name });
      } catch (err) {
        reasons.set(name, reason(err));
        still.push(name);
        continue;
      }
      const result = crdEstablished(crd);
      if (result.ok) continue;
      reasons.set(name, result.reason);
      still.push(name);
    }
    pending = still;
    if (pending.length === 0) return;
    if (deps.clock.now() >= deadline) {
      const detail = pending.map((n) => `${n} (${reasons.get(n) ?? 'unknown'})`).join(', ');
      throw new Error(`CustomResourceDefinitions not Established after ${timeoutMs} ms: ${detail}`);
    }
    await new Promise<void>((resolve) => deps.timers.after(pollMs, resolve));
  }
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
