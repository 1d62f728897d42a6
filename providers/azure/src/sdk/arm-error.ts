/** An ARM failure as the provider classifies it: HTTP status (when synchronous) and ARM code. */
export interface ArmFailure {
  readonly status?: number;
  readonly code?: string;
  readonly message: string;
}

/**
 * The status and ARM code of an SDK error. A synchronous failure is a RestError carrying
 * `statusCode` and `code`; a failed long-running operation is a plain Error from core-lro whose
 * message alone holds the code ("The long-running operation has failed. <code>. <message>").
 */
export function armFailure(error: unknown): ArmFailure {
  const e = error as { statusCode?: unknown; code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const status = typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  const code =
    typeof e?.code === 'string' && e.code !== ''
      ? e.code
      : /^The long-running operation has failed\. (\w+)\./.exec(message)?.[1];
  return { ...(status !== undefined ? { status } : {}), ...(code !== undefined ? { code } : {}), message };
}

/** Whether an error says the resource is not there (404, or ARM's not-found codes). */
export function isArmNotFound(error: unknown): boolean {
  const f = armFailure(error);
  return f.status === 404 || f.code === 'ResourceNotFound' || f.code === 'NotFound';
}
