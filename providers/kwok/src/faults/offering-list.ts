import type { OfferingKey } from '@nodewright/core/cloudprovider';

/**
 * Parses the `insufficientCapacity` setting: comma-separated `capacityType:instanceType:zone`
 * offerings (the unavailable-offerings cache's key form).
 * @throws Error naming the setting and the malformed entry.
 */
export function parseOfferingList(text: string, setting = 'insufficientCapacity'): OfferingKey[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const parts = entry.split(':');
      if (parts.length !== 3 || parts.some((p) => p === '')) {
        throw new Error(
          `setting ${setting}: "${entry}" is not an offering; write capacityType:instanceType:zone, e.g. spot:c-4x-amd64-linux:test-zone-a`,
        );
      }
      const [capacityType = '', instanceType = '', zone = ''] = parts;
      return { capacityType, instanceType, zone };
    });
}
