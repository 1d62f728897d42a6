/** An ARM error reply: `{error:{code,message}}` with its HTTP status. */
export class ArmError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra headers, e.g. Retry-After on a 429. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  body(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/** 404 for a resource that is not there, as ARM words it. */
export function notFound(type: string, name: string, resourceGroup: string): ArmError {
  return new ArmError(
    404,
    'ResourceNotFound',
    `The Resource '${type}/${name}' under resource group '${resourceGroup}' was not found.`,
  );
}
