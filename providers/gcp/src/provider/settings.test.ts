import { describe, expect, it } from 'vitest';
import { parseGcpSettings } from './settings.js';

describe('parseGcpSettings', () => {
  it('reads project, region, network, endpoints and anonymous', () => {
    expect(
      parseGcpSettings({
        project: 'my-project',
        region: 'us-central1',
        network: 'regions/us-central1/subnetworks/nodes',
        endpoint: 'http://127.0.0.1:8080',
        anonymous: 'true',
      }),
    ).toEqual({
      project: 'my-project',
      region: 'us-central1',
      network: 'regions/us-central1/subnetworks/nodes',
      endpoint: 'http://127.0.0.1:8080',
      billingEndpoint: undefined,
      anonymous: true,
      launchMode: 'bulkInsert',
    });
  });

  it('reads requestTimeout as the deadline of each call', () => {
    const base = { project: 'my-project', region: 'us-central1' };
    expect(parseGcpSettings(base).requestTimeoutMs).toBeUndefined();
    expect(parseGcpSettings({ ...base, requestTimeout: '30s' }).requestTimeoutMs).toBe(30_000);
    expect(parseGcpSettings({ ...base, requestTimeout: '250ms' }).requestTimeoutMs).toBe(250);
    expect(() => parseGcpSettings({ ...base, requestTimeout: 'soon' })).toThrow(
      'setting requestTimeout "soon" is not a duration such as 30s or 500ms',
    );
  });

  it('reads launchMode, bulkInsert unless told insert', () => {
    const base = { project: 'my-project', region: 'us-central1' };
    expect(parseGcpSettings(base).launchMode).toBe('bulkInsert');
    expect(parseGcpSettings({ ...base, launchMode: 'insert' }).launchMode).toBe('insert');
  });

  it.each([
    [{ region: 'us-central1' }, 'setting project is required'],
    [{ project: 'My_Project', region: 'us-central1' }, 'setting project "My_Project" is not a project id'],
    [{ project: 'my-project' }, 'setting region is required'],
    [{ project: 'my-project', region: 'us-central1-a' }, 'is not a region such as us-central1'],
    [
      { project: 'my-project', region: 'us-central1', endpoint: 'not a url' },
      'setting endpoint "not a url" is not a URL',
    ],
    [
      { project: 'my-project', region: 'us-central1', anonymous: 'yes' },
      'setting anonymous "yes" is not true or false',
    ],
    [
      { project: 'my-project', region: 'us-central1', launchMode: 'fleet' },
      'setting launchMode "fleet" is not bulkInsert or insert',
    ],
    [
      { project: 'my-project', region: 'us-central1', zone: 'a', subnet: 'b' },
      'unknown settings zone, subnet',
    ],
  ])('%j is refused: %s', (raw, message) => {
    expect(() => parseGcpSettings(raw as Record<string, string>)).toThrow(message);
  });
});
