import { describe, expect, it } from 'vitest';
import { gpuModel, parseSkuName } from './sku-name.js';

describe('parseSkuName', () => {
  it.each([
    ['Standard_D2s_v5', { family: 'D', series: 'Ds_v5', version: '5' }],
    ['Standard_D16as_v5', { family: 'D', series: 'Das_v5', version: '5' }],
    ['Standard_D4ps_v5', { family: 'D', series: 'Dps_v5', version: '5' }],
    ['Standard_F8s_v2', { family: 'F', series: 'Fs_v2', version: '2' }],
    ['Standard_B2ms', { family: 'B', series: 'Bms', version: '1' }],
    ['Standard_NC24ads_A100_v4', { family: 'NC', series: 'NCads_A100_v4', version: '4' }],
    ['Standard_NC4as_T4_v3', { family: 'NC', series: 'NCas_T4_v3', version: '3' }],
    ['Standard_E4-2s_v5', { family: 'E', series: 'Es_v5', version: '5' }],
  ])('%s', (name, parts) => {
    expect(parseSkuName(name)).toEqual(parts);
  });
  it('leaves a name outside the scheme unparsed', () => {
    expect(parseSkuName('weird-size')).toBeUndefined();
  });
  it('reads GPU models from size names', () => {
    expect(gpuModel('Standard_NC24ads_A100_v4')).toBe('A100');
    expect(gpuModel('Standard_NC4as_T4_v3')).toBe('T4');
    expect(gpuModel('Standard_D2s_v5')).toBeUndefined();
  });
});
