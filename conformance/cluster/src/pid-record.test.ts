import { describe, expect, it } from 'vitest';
import { isAbandoned, type PidRecord, type ProcessProbe, parsePidRecord, survivors } from './pid-record.js';

const probe = (alive: Record<number, string | undefined>): ProcessProbe => ({
  isAlive: (pid) => pid in alive,
  executable: (pid) => alive[pid],
});

const record: PidRecord = {
  ownerPid: 100,
  processes: [
    { name: 'etcd', pid: 201, binary: '/bin/etcd' },
    { name: 'kube-apiserver', pid: 202, binary: '/bin/kube-apiserver' },
    { name: 'kwok', pid: 203, binary: '/bin/kwok' },
  ],
  extraDirs: ['/dev/shm/nodewright-cluster-etcd-x'],
};

describe('parsePidRecord', () => {
  it('reads what the supervisor writes', () => {
    expect(parsePidRecord(JSON.stringify(record))).toEqual(record);
  });

  it('returns undefined for a damaged file and drops malformed entries', () => {
    expect(parsePidRecord('{"ownerPid": 1, "proc')).toBeUndefined();
    expect(parsePidRecord('{"processes": []}')).toBeUndefined();
    const parsed = parsePidRecord(
      JSON.stringify({ ownerPid: 1, processes: [{ pid: 'x' }, record.processes[0]] }),
    );
    expect(parsed?.processes).toEqual([record.processes[0]]);
    expect(parsed?.extraDirs).toEqual([]);
  });
});

describe('isAbandoned', () => {
  it('is abandoned only when the owner is gone', () => {
    expect(isAbandoned(record, probe({}))).toBe(true);
    expect(isAbandoned(record, probe({ 100: '/usr/bin/node' }))).toBe(false);
  });
});

describe('survivors', () => {
  it('keeps live processes still running their recorded binary and skips reused pids', () => {
    const live = survivors(record, probe({ 201: '/bin/etcd', 202: '/usr/bin/vim' }));
    expect(live.map((p) => p.name)).toEqual(['etcd']);
  });
});
