import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import type { ClusterPort } from '../../kube/port.js';
import { Events } from '../../kube/resource-types.js';
import { ClusterEventRecorder } from './event-recorder.js';
import { createLogger, objectRef } from './logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes Karpenter-shaped JSON lines on the injected clock', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ destination, now: () => Date.parse('2026-03-02T09:00:00Z') });
    logger
      .child({ controller: 'nodeclaim.lifecycle' })
      .info({ NodeClaim: objectRef({ metadata: { name: 'default-a1' } }) }, 'launched nodeclaim');
    logger.error({ err: new Error('boom') }, 'Reconciler error');
    expect(lines[0]).toEqual({
      level: 'INFO',
      time: '2026-03-02T09:00:00.000Z',
      logger: 'controller',
      controller: 'nodeclaim.lifecycle',
      NodeClaim: { name: 'default-a1' },
      message: 'launched nodeclaim',
    });
    expect(lines[1]).toMatchObject({ level: 'ERROR', err: { message: 'boom', type: 'Error' } });
  });

  it('respects the level', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ destination, level: 'warn' });
    logger.info('hidden');
    logger.warn('shown');
    expect(lines.map((l) => l.message)).toEqual(['shown']);
  });
});

describe('ClusterEventRecorder', () => {
  it('publishes core/v1 Events about the object, aggregated by the cluster', async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(Date.parse('2026-03-02T09:00:00Z')) });
    const { destination } = capture();
    const recorder = new ClusterEventRecorder(cluster, createLogger({ destination }));
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u1' } };
    const event = { object: pod, type: 'Warning' as const, reason: 'EvictionBlocked', message: 'PDB' };
    await recorder.publish(event);
    await recorder.publish(event);
    await recorder.flush();
    const events = (await cluster.list(Events)).items as unknown as {
      reason: string;
      count: number;
      source: { component: string };
      involvedObject: { name: string };
    }[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      reason: 'EvictionBlocked',
      count: 2,
      source: { component: 'karpenter' },
      involvedObject: { name: 'web' },
    });
  });
});

describe('ClusterEventRecorder, queued', () => {
  /** A port whose event writes wait until released, recording each write's reason. */
  function heldPort() {
    const written: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const port = {
      async createEvent(e: { reason: string }) {
        await gate;
        written.push(e.reason);
      },
    } as unknown as ClusterPort;
    return { port, written, release };
  }
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u1' } };
  const event = (reason: string) => ({ object: pod, type: 'Normal' as const, reason, message: reason });

  it('returns before the apiserver answers, and writes in order once it does', async () => {
    const { port, written, release } = heldPort();
    const recorder = new ClusterEventRecorder(port, createLogger({ destination: capture().destination }));
    await recorder.publish(event('A'));
    await recorder.publish(event('B'));
    expect(written).toEqual([]);
    release();
    await recorder.flush();
    expect(written).toEqual(['A', 'B']);
  });

  it('drops events beyond its queue limit, saying so once', async () => {
    const { port, written, release } = heldPort();
    const { lines, destination } = capture();
    const recorder = new ClusterEventRecorder(port, createLogger({ destination }), 'karpenter', 2);
    // The first is taken by the sender at once; two wait; the rest are dropped.
    for (const reason of ['A', 'B', 'C', 'D', 'E']) await recorder.publish(event(reason));
    release();
    await recorder.flush();
    expect(written).toEqual(['A', 'B', 'C']);
    expect(recorder.dropped).toBe(2);
    expect(lines.filter((l) => l.message === 'event queue full; dropping events')).toHaveLength(1);
  });
});

describe('createLogger, secrets and text', () => {
  it('redacts credentials an error or object carries, at any of three levels', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ destination });
    const err = Object.assign(new Error('401'), {
      request: { headers: { authorization: 'Bearer eyJhbGciOi.secret', host: 'management.azure.com' } },
    });
    logger.error(
      { err, credentials: { clientSecret: 's3cr3t', clientId: 'app' }, token: 't0k' },
      'call failed',
    );
    const line = JSON.stringify(lines[0]);
    expect(line).not.toContain('eyJhbGciOi');
    expect(line).not.toContain('s3cr3t');
    expect(line).not.toContain('t0k');
    expect(lines[0]).toMatchObject({
      err: { request: { headers: { authorization: '[REDACTED]', host: 'management.azure.com' } } },
      credentials: { clientSecret: '[REDACTED]', clientId: 'app' },
      token: '[REDACTED]',
    });
  });

  it('writes readable text lines with every field when asked', () => {
    const text: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        text.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({
      destination,
      format: 'text',
      now: () => Date.parse('2026-03-02T09:00:00Z'),
    });
    logger
      .child({ controller: 'disruption' })
      .info(
        { Node: objectRef({ metadata: { name: 'n-1' } }), reason: 'pdb blocks eviction', savings: 0.12 },
        'not disrupted',
      );
    expect(text.join('')).toBe(
      '2026-03-02T09:00:00.000Z INFO  [disruption] not disrupted Node=n-1 reason="pdb blocks eviction" savings=0.12\n',
    );
  });
});
