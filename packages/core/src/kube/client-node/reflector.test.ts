import { describe, expect, it } from 'vitest';
import { WatchBackoff } from '../../clock/backoff.js';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { BadRequestError, GoneError, InternalError, isBadRequest, isGone, NotFoundError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { WatchEvent } from '../watch.js';
import type { KubeLogger } from './logger.js';
import { Reflector, type ReflectorOptions, type WatchSource } from './reflector.js';
import type { StreamEvent } from './transport.js';

interface Connection {
  readonly resourceVersion: string;
  readonly timeoutSeconds: number;
  readonly signal: AbortSignal;
  emit(event: StreamEvent): void;
  end(): void;
  fail(err: unknown): void;
}

type Listing = { items: KubeObject[]; resourceVersion: string } | Error;

/** A WatchSource whose lists are scripted and whose connections the test drives by hand. */
class ScriptedSource implements WatchSource {
  readonly listings: Listing[] = [];
  readonly connections: Connection[] = [];
  lists = 0;

  async list(): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    this.lists++;
    const next = this.listings.shift();
    if (next === undefined) throw new Error('unexpected list');
    if (next instanceof Error) throw next;
    return structuredClone(next);
  }

  stream(
    resourceVersion: string,
    timeoutSeconds: number,
    onEvent: (event: StreamEvent) => void,
    signal: AbortSignal,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => resolve(), { once: true });
      this.connections.push({
        resourceVersion,
        timeoutSeconds,
        signal,
        emit: onEvent,
        end: resolve,
        fail: reject,
      });
    });
  }

  last(): Connection {
    const connection = this.connections.at(-1);
    if (connection === undefined) throw new Error('no connection yet');
    return connection;
  }
}

function obj(name: string, rv: string, value = ''): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'n', resourceVersion: rv },
    ...{ data: { value } },
  };
}

function recordingLogger(): KubeLogger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (_bindings: Record<string, unknown>, message: string) => {
    lines.push(`${level} ${message}`);
  };
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** Lets queued microtasks and promise chains run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

function setup(options: Partial<ReflectorOptions> = {}) {
  const clock = new FakeClock(0);
  const timers = new ManualTimers(clock);
  const source = new ScriptedSource();
  const logger = recordingLogger();
  const seen: string[] = [];
  const handler = (event: WatchEvent) => {
    seen.push(
      event.type === 'ERROR'
        ? `ERROR ${event.error.reason}`
        : `${event.type} ${event.object.metadata.name}@${event.object.metadata.resourceVersion}`,
    );
  };
  const start = (more: Partial<ReflectorOptions> = {}) =>
    new Reflector(source, handler, {
      clock,
      timers,
      logger,
      backoff: WatchBackoff,
      random: () => 0,
      timeoutSeconds: 25,
      syncProbeSeconds: 3,
      description: 'v1/ConfigMap',
      ...options,
      ...more,
    });
  return { clock, timers, source, logger, seen, start };
}

describe('Reflector without a resume point', () => {
  it('lists, hands the objects over as ADDED, syncs, then watches from the list version', async () => {
    const { source, seen, start } = setup();
    source.listings.push({ items: [obj('a', '3'), obj('b', '5')], resourceVersion: '10' });
    const informer = start();
    expect(informer.hasSynced()).toBe(false);
    expect(informer.resourceVersion()).toBe('0');
    await informer.synced;
    expect(informer.hasSynced()).toBe(true);
    expect(seen).toEqual(['ADDED a@3', 'ADDED b@5']);
    expect(informer.resourceVersion()).toBe('10');
    await flush();
    expect(source.last()).toMatchObject({ resourceVersion: '10', timeoutSeconds: 25 });
    source.last().emit({ type: 'MODIFIED', object: obj('a', '11') });
    await flush();
    expect(seen.at(-1)).toBe('MODIFIED a@11');
    expect(informer.resourceVersion()).toBe('11');
    informer.stop();
  });

  it('reconnects at once after a clean end, from the last event or bookmark', async () => {
    const { clock, timers, source, seen, start } = setup();
    source.listings.push({ items: [], resourceVersion: '10' });
    const informer = start();
    await flush();
    source.last().emit({ type: 'ADDED', object: obj('c', '12') });
    source.last().emit({ type: 'BOOKMARK', resourceVersion: '15' });
    clock.step(25_000);
    source.last().end();
    await flush();
    expect(source.connections.map((c) => c.resourceVersion)).toEqual(['10', '15']);
    expect(timers.pending()).toBe(0);
    expect(seen).toEqual(['ADDED c@12']);
    expect(informer.resourceVersion()).toBe('15');
    informer.stop();
  });

  it('retries a failed connection after a growing backoff, from where it left off', async () => {
    const { clock, timers, source, logger, start } = setup();
    source.listings.push({ items: [], resourceVersion: '10' });
    const informer = start();
    await flush();
    source.last().fail(new InternalError('etcd is sad'));
    await flush();
    expect(source.connections).toHaveLength(1);
    expect(timers.nextAt()).toBe(clock.now() + 500);
    await timers.advance(499, flush);
    expect(source.connections).toHaveLength(1);
    await timers.advance(1, flush);
    expect(source.connections).toHaveLength(2);
    expect(source.last().resourceVersion).toBe('10');
    source.last().fail(new InternalError('still sad'));
    await flush();
    expect(timers.nextAt()).toBe(clock.now() + 1000);
    await timers.advance(1000, flush);
    // A connection that delivered something before breaking starts the backoff over.
    source.last().emit({ type: 'ADDED', object: obj('x', '20') });
    source.last().fail(new Error('connection reset'));
    await flush();
    expect(timers.nextAt()).toBe(clock.now() + 500);
    await timers.advance(500, flush);
    expect(source.last().resourceVersion).toBe('20');
    expect(logger.lines.filter((l) => l === 'warn watch failed; retrying')).toHaveLength(3);
    informer.stop();
  });

  it('does not spin when connections close at once without delivering anything', async () => {
    const { timers, source, start } = setup();
    source.listings.push({ items: [], resourceVersion: '10' });
    const informer = start();
    await flush();
    source.last().end();
    await flush();
    expect(source.connections).toHaveLength(1);
    expect(timers.pending()).toBe(1);
    informer.stop();
  });

  it('relists after a 410 and tells the handler what changed meanwhile', async () => {
    const { source, seen, start } = setup();
    source.listings.push({ items: [obj('a', '1'), obj('b', '2'), obj('d', '4')], resourceVersion: '10' });
    const informer = start();
    await flush();
    source.last().emit({ type: 'ADDED', object: obj('e', '11') });
    source.listings.push({ items: [obj('a', '1'), obj('b', '30'), obj('c', '31')], resourceVersion: '40' });
    source.last().fail(new GoneError('too old resource version: 11 (35)'));
    await flush();
    expect(seen).toEqual([
      'ADDED a@1',
      'ADDED b@2',
      'ADDED d@4',
      'ADDED e@11',
      'MODIFIED b@30',
      'ADDED c@31',
      'DELETED d@4',
      'DELETED e@11',
    ]);
    expect(informer.resourceVersion()).toBe('40');
    expect(source.last().resourceVersion).toBe('40');
    // The new listing is what later diffs compare against.
    source.last().emit({ type: 'DELETED', object: obj('c', '41') });
    source.listings.push({ items: [obj('a', '1'), obj('b', '30')], resourceVersion: '50' });
    source.last().fail(new GoneError('too old'));
    await flush();
    expect(seen.slice(8)).toEqual(['DELETED c@41']);
    informer.stop();
  });

  it('ends with an ERROR when the first list is a request a retry cannot fix', async () => {
    const { source, seen, start } = setup();
    source.listings.push(new BadRequestError('field label not supported: spec.size'));
    const informer = start();
    await expect(informer.synced).rejects.toSatisfy(isBadRequest);
    await flush();
    expect(seen).toEqual(['ERROR BadRequest']);
    expect(source.connections).toHaveLength(0);
  });

  it('retries the first list when the kind is not served yet (a CRD being established)', async () => {
    const { timers, source, seen, start } = setup();
    source.listings.push(new NotFoundError('the server could not find the requested resource'));
    source.listings.push({ items: [obj('a', '1')], resourceVersion: '2' });
    const informer = start();
    await flush();
    expect(informer.hasSynced()).toBe(false);
    await timers.advance(500, flush);
    await informer.synced;
    expect(seen).toEqual(['ADDED a@1']);
    informer.stop();
  });
});

describe('Reflector with a resume point', () => {
  it('delivers the backlog, syncs at the first bookmark and then uses long connections', async () => {
    const { clock, source, seen, start } = setup();
    const informer = start({ resourceVersion: '7' });
    await flush();
    expect(source.lists).toBe(0);
    expect(source.last()).toMatchObject({ resourceVersion: '7', timeoutSeconds: 3 });
    expect(informer.resourceVersion()).toBe('7');
    source.last().emit({ type: 'MODIFIED', object: obj('a', '8') });
    await flush();
    expect(seen).toEqual(['MODIFIED a@8']);
    expect(informer.hasSynced()).toBe(false);
    source.last().emit({ type: 'BOOKMARK', resourceVersion: '9' });
    await informer.synced;
    expect(informer.resourceVersion()).toBe('9');
    clock.step(3000);
    source.last().end();
    await flush();
    expect(source.last()).toMatchObject({ resourceVersion: '9', timeoutSeconds: 25 });
    informer.stop();
  });

  it('syncs when its first connection ends cleanly', async () => {
    const { clock, source, start } = setup();
    const informer = start({ resourceVersion: '7' });
    await flush();
    clock.step(3000);
    source.last().end();
    await informer.synced;
    expect(informer.resourceVersion()).toBe('7');
    informer.stop();
  });

  it('ends with an ERROR on a 410, since it cannot know what the handler holds', async () => {
    const { timers, source, seen, start } = setup();
    const informer = start({ resourceVersion: '1' });
    await flush();
    source.last().fail(new GoneError('too old resource version: 1 (225)'));
    await expect(informer.synced).rejects.toSatisfy(isGone);
    await flush();
    expect(seen).toEqual(['ERROR Expired']);
    expect(source.lists).toBe(0);
    expect(timers.pending()).toBe(0);
    expect(source.connections).toHaveLength(1);
  });
});

/** A reflector's options for the delivery tests: nothing but what they vary. */
function deliveryOptions(clock: FakeClock, more: Partial<ReflectorOptions> = {}): ReflectorOptions {
  return {
    clock,
    timers: new ManualTimers(clock),
    logger: recordingLogger(),
    backoff: WatchBackoff,
    random: () => 0,
    timeoutSeconds: 25,
    syncProbeSeconds: 3,
    description: 'test',
    ...more,
  };
}

describe('Reflector delivery', () => {
  it('gives the event loop a turn between slices of a long delivery, in order, all delivered', async () => {
    const clock = new FakeClock(0);
    const source = new ScriptedSource();
    const items = Array.from({ length: 500 }, (_, i) => obj(`o${i}`, String(i + 1)));
    source.listings.push({ items, resourceVersion: '600' });
    let elapsed = 0;
    const delivered: string[] = [];
    let turns = 0;
    const deliveredAtTurn: number[] = [];
    const informer = new Reflector(
      source,
      (event) => {
        if (event.type === 'ERROR') return;
        delivered.push(event.object.metadata.name ?? '');
        elapsed += 1; // each handler call takes 1 ms of the slice clock
      },
      deliveryOptions(clock, {
        sliceMs: 20,
        elapsedMs: () => elapsed,
        defer: async () => {
          turns++;
          deliveredAtTurn.push(delivered.length);
        },
      }),
    );
    await informer.synced;
    expect(delivered).toEqual(items.map((o) => o.metadata.name));
    // A turn after every 20 handler calls, the last one before the sync that follows the list.
    expect(turns).toBe(25);
    expect(deliveredAtTurn.slice(0, 3)).toEqual([20, 40, 60]);
    expect(deliveredAtTurn.at(-1)).toBe(500);
    informer.stop();
  });

  it('awaits each handler, drops queued events on stop, and aborts the connection', async () => {
    const clock = new FakeClock(0);
    const source = new ScriptedSource();
    source.listings.push({ items: [], resourceVersion: '1' });
    const calls: string[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const informer = new Reflector(
      source,
      async (event) => {
        if (event.type === 'ERROR') return;
        calls.push(`start ${event.object.metadata.name}`);
        if (event.object.metadata.name === 'a') await blocked;
        calls.push(`end ${event.object.metadata.name}`);
      },
      deliveryOptions(clock),
    );
    await informer.synced;
    await flush();
    const connection = source.last();
    connection.emit({ type: 'ADDED', object: obj('a', '2') });
    connection.emit({ type: 'ADDED', object: obj('b', '3') });
    await flush();
    expect(calls).toEqual(['start a']);
    informer.stop();
    expect(connection.signal.aborted).toBe(true);
    release();
    await flush();
    expect(calls).toEqual(['start a', 'end a']);
    expect(source.connections).toHaveLength(1);
  });

  it('rejects synced when stopped first', async () => {
    const { source, start } = setup();
    source.listings.push({ items: [], resourceVersion: '1' });
    const informer = start();
    informer.stop();
    await expect(informer.synced).rejects.toThrow('watch stopped before it synced');
  });

  it('logs a failing handler and keeps delivering', async () => {
    const clock = new FakeClock(0);
    const source = new ScriptedSource();
    source.listings.push({ items: [obj('bad', '1'), obj('good', '2')], resourceVersion: '3' });
    const logger = recordingLogger();
    const seen: string[] = [];
    const informer = new Reflector(
      source,
      (event) => {
        if (event.type === 'ERROR') return;
        seen.push(event.object.metadata.name as string);
        if (event.object.metadata.name === 'bad') throw new Error('handler broke');
      },
      {
        clock,
        timers: new ManualTimers(clock),
        logger,
        backoff: WatchBackoff,
        random: () => 0,
        timeoutSeconds: 25,
        syncProbeSeconds: 3,
        description: 'test',
      },
    );
    await informer.synced;
    expect(seen).toEqual(['bad', 'good']);
    expect(logger.lines).toContain('error watch handler failed');
    informer.stop();
  });
});
