import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePidRecord } from './pid-record.js';
import { PidRecordFile } from './pid-record-file.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('PidRecordFile', () => {
  it('keeps the file current as processes come and go', async () => {
    dir = await mkdtemp(join(tmpdir(), 'nw-pid-record-'));
    const path = join(dir, 'pids.json');
    const record = new PidRecordFile(path, 100, ['/tmp/x']);
    const read = async () => parsePidRecord(await readFile(path, 'utf8'));
    expect(await read()).toEqual({ ownerPid: 100, processes: [], extraDirs: ['/tmp/x'] });
    record.add({ name: 'controller a', pid: 201, binary: '/usr/bin/node' });
    record.add({ name: 'controller b', pid: 202, binary: '/usr/bin/node' });
    record.remove(201);
    record.remove(999);
    expect(await read()).toEqual({
      ownerPid: 100,
      processes: [{ name: 'controller b', pid: 202, binary: '/usr/bin/node' }],
      extraDirs: ['/tmp/x'],
    });
    expect(record.record()).toEqual(await read());
  });

  it('forgets a process quietly once its directory is gone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'nw-pid-record-'));
    const record = new PidRecordFile(join(dir, 'pids.json'), 100);
    record.add({ name: 'controller a', pid: 201, binary: '/usr/bin/node' });
    await rm(dir, { recursive: true, force: true });
    expect(() => record.remove(201)).not.toThrow();
    expect(record.record().processes).toEqual([]);
  });
});
