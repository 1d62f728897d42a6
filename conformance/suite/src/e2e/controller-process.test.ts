import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessEvents, ProcessRegistry, RecordedProcess } from '@nodewright/conformance/cluster';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControllerProcess } from './controller-process.js';

/** Stands in for the test process: the test emits its exit and signals. */
class FakeParent extends EventEmitter implements ProcessEvents {
  readonly pid = process.pid;
  readonly raised: string[] = [];

  kill(_pid: number, signal: NodeJS.Signals): boolean {
    this.raised.push(signal);
    return true;
  }
}

class MemoryRegistry implements ProcessRegistry {
  readonly running = new Map<number, RecordedProcess>();
  readonly added: RecordedProcess[] = [];

  add(p: RecordedProcess): void {
    this.added.push(p);
    this.running.set(p.pid, p);
  }

  remove(pid: number): void {
    this.running.delete(pid);
  }
}

const started: ControllerProcess[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const c of started.splice(0)) await c.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A "controller" that logs that it is up and then runs until killed, ignoring SIGTERM. */
async function stubController(parent: FakeParent, registry: ProcessRegistry): Promise<ControllerProcess> {
  dir = await mkdtemp(join(tmpdir(), 'nw-controller-process-'));
  const binPath = join(dir, 'stub.mjs');
  await writeFile(
    binPath,
    "process.on('SIGTERM', () => {});\nconsole.log(JSON.stringify({ message: 'up' }));\nsetInterval(() => {}, 1000);\n",
  );
  const controller = ControllerProcess.start({
    binPath,
    provider: 'stub',
    kubeconfigPath: '/dev/null',
    identity: 'stub',
    leaderElectionId: 'stub',
    registry,
    parent,
  });
  started.push(controller);
  await controller.waitForLog((e) => e.message === 'up', 'the stub to start', 30_000);
  return controller;
}

describe('ControllerProcess', () => {
  it('is recorded while it runs, and forgotten once it exits', async () => {
    const parent = new FakeParent();
    const registry = new MemoryRegistry();
    const controller = await stubController(parent, registry);
    expect(registry.added).toEqual([
      { name: 'controller stub', pid: controller.pid, binary: process.execPath },
    ]);
    expect([...registry.running.keys()]).toEqual([controller.pid]);
    await controller.kill();
    expect(registry.running.size).toBe(0);
    expect(['exit', 'SIGINT', 'SIGTERM'].map((e) => parent.listenerCount(e))).toEqual([0, 0, 0]);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('dies when its parent gets %s', async (signal) => {
    const parent = new FakeParent();
    const registry = new MemoryRegistry();
    const controller = await stubController(parent, registry);
    parent.emit(signal, signal);
    // SIGKILL: the stub ignores SIGTERM, as a controller mid-shutdown may take its time.
    expect(await controller.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(parent.raised).toEqual([signal]);
    expect(registry.running.size).toBe(0);
  });

  it('dies when its parent exits', async () => {
    const parent = new FakeParent();
    const controller = await stubController(parent, new MemoryRegistry());
    parent.emit('exit');
    expect(await controller.exited).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('keeps running when its log file cannot be written', async () => {
    dir = await mkdtemp(join(tmpdir(), 'nw-controller-process-'));
    const binPath = join(dir, 'stub.mjs');
    await writeFile(
      binPath,
      "console.log(JSON.stringify({ message: 'up' }));\nsetInterval(() => {}, 1000);\n",
    );
    const controller = ControllerProcess.start({
      binPath,
      provider: 'stub',
      kubeconfigPath: '/dev/null',
      identity: 'stub',
      leaderElectionId: 'stub',
      logFile: join(dir, 'gone', 'stub.log'),
      parent: new FakeParent(),
    });
    started.push(controller);
    await controller.waitForLog((e) => e.message === 'up', 'the stub to start', 30_000);
    await vi.waitFor(() => expect(controller.textLines().some((l) => l.includes('not written'))).toBe(true));
    expect(controller.exit).toBeUndefined();
  });
});
