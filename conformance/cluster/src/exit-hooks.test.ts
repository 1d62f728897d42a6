import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { killOnProcessEnd, type ProcessEvents } from './exit-hooks.js';

/** A stand-in for `process`: events are emitted by the test, kills recorded. */
class FakeProcess extends EventEmitter implements ProcessEvents {
  readonly pid = 4242;
  readonly kills: [number, string][] = [];

  kill(pid: number, signal: NodeJS.Signals): boolean {
    this.kills.push([pid, signal]);
    return true;
  }
}

describe('killOnProcessEnd', () => {
  it('kills on exit and stays attached (exit happens once)', () => {
    const parent = new FakeProcess();
    let killed = 0;
    killOnProcessEnd(() => killed++, parent);
    parent.emit('exit');
    expect(killed).toBe(1);
    expect(parent.listenerCount('exit')).toBe(1);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'kills on %s, detaches and re-raises it when nobody else listens',
    (signal) => {
      const parent = new FakeProcess();
      let killed = 0;
      killOnProcessEnd(() => killed++, parent);
      parent.emit(signal, signal);
      expect(killed).toBe(1);
      expect(parent.kills).toEqual([[4242, signal]]);
      expect(['exit', 'SIGINT', 'SIGTERM'].map((e) => parent.listenerCount(e))).toEqual([0, 0, 0]);
    },
  );

  it('leaves the signal to another listener when there is one', () => {
    const parent = new FakeProcess();
    const killed: string[] = [];
    killOnProcessEnd(() => killed.push('a'), parent);
    killOnProcessEnd(() => killed.push('b'), parent);
    parent.emit('SIGTERM', 'SIGTERM');
    expect(killed).toEqual(['a', 'b']);
    // The first hook saw the second still listening; the second re-raised once.
    expect(parent.kills).toEqual([[4242, 'SIGTERM']]);
  });

  it('does nothing once detached', () => {
    const parent = new FakeProcess();
    let killed = 0;
    const detach = killOnProcessEnd(() => killed++, parent);
    detach();
    parent.emit('exit');
    parent.emit('SIGINT', 'SIGINT');
    expect(killed).toBe(0);
  });
});
