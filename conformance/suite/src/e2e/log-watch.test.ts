import { describe, expect, it } from 'vitest';
import type { LogEntry } from './json-lines.js';
import { LogWatch } from './log-watch.js';

function watched() {
  const entries: LogEntry[] = [];
  let ended: string | undefined;
  const watch = new LogWatch({
    name: 'controller x',
    entries: () => entries,
    ended: () => ended,
    tail: () => '; last output: boom',
  });
  return {
    watch,
    add(entry: LogEntry) {
      entries.push(entry);
      watch.wake();
    },
    end(how: string) {
      ended = how;
      watch.wake();
    },
  };
}

describe('LogWatch', () => {
  it('resolves with an entry seen before the wait', async () => {
    const w = watched();
    w.add({ message: 'became leader' });
    await expect(w.watch.waitFor((e) => e.message === 'became leader', 'leadership', 1000)).resolves.toEqual({
      message: 'became leader',
    });
  });

  it('resolves with an entry that arrives later', async () => {
    const w = watched();
    const waiting = w.watch.waitFor((e) => e.message === 'ready', 'readiness', 1000);
    w.add({ message: 'starting' });
    w.add({ message: 'ready' });
    await expect(waiting).resolves.toEqual({ message: 'ready' });
  });

  it('fails naming the controller and how it ended when it ends first', async () => {
    const w = watched();
    const waiting = w.watch.waitFor((e) => e.message === 'ready', 'readiness', 1000);
    w.end('exited (code 1)');
    await expect(waiting).rejects.toThrow('controller x exited (code 1) before readiness; last output: boom');
  });

  it('fails after the timeout with the last output', async () => {
    const w = watched();
    await expect(w.watch.waitFor(() => false, 'leadership', 20)).rejects.toThrow(
      'controller x: no leadership within 20 ms; last output: boom',
    );
  });
});
