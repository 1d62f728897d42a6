import { z } from 'zod';

/**
 * An optional field that also accepts an explicit `null`, read as absent. `kubectl get -o yaml`
 * writes nulls such as `creationTimestamp: null` in pod templates, and the API server treats
 * them as unset, so nodewright does too.
 */
export function optional<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (value === null ? undefined : value), schema.optional());
}
