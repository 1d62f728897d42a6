import { describe, expect, it } from 'vitest';
import { textLogLine } from './text-log-line.js';

describe('textLogLine', () => {
  it('puts time, level, controller and message first, then the other fields', () => {
    const line = JSON.stringify({
      level: 'WARN',
      time: '2026-12-04T14:00:00.000Z',
      logger: 'controller',
      controller: 'provisioning',
      message: 'pod not scheduled',
      Pod: { name: 'web-1', namespace: 'shop' },
      reason: 'no NodePool allows zone us-east-1z',
      attempts: 3,
      zones: ['a', 'b'],
    });
    expect(textLogLine(line)).toBe(
      '2026-12-04T14:00:00.000Z WARN  [provisioning] pod not scheduled Pod=shop/web-1 reason="no NodePool allows zone us-east-1z" attempts=3 zones=["a","b"]\n',
    );
  });

  it('keeps objects that are not references as JSON and quotes empty strings', () => {
    const line = JSON.stringify({
      level: 'INFO',
      time: 't',
      message: 'm',
      err: { type: 'Error', message: 'x' },
      id: '',
    });
    expect(textLogLine(line)).toBe('t INFO  m err={"type":"Error","message":"x"} id=""\n');
  });

  it('passes through a line that is not a JSON object', () => {
    expect(textLogLine('not json\n')).toBe('not json\n');
    expect(textLogLine('[1,2]')).toBe('[1,2]');
  });
});
