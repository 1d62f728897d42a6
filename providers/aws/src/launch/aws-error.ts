/**
 * The AWS error code of an SDK exception (`InvalidInstanceID.NotFound`, ...): the SDK puts it
 * in `name` (and older shapes in `Code`/`code`). Undefined for anything that is not an AWS error.
 */
export function awsErrorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { name?: unknown; Code?: unknown; code?: unknown; $metadata?: unknown };
  if (typeof e.Code === 'string') return e.Code;
  if (typeof e.code === 'string') return e.code;
  if (e.$metadata !== undefined && typeof e.name === 'string') return e.name;
  return undefined;
}

/** The message of any thrown value. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
