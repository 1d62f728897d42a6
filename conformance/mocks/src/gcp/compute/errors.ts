/**
 * An error as Compute Engine answers it: `{error:{code,message,errors:[{reason,message,domain}]}}`
 * with the HTTP status in `code`.
 */
export class GceError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }

  body(): unknown {
    return {
      error: {
        code: this.status,
        message: this.message,
        errors: [{ message: this.message, domain: 'global', reason: this.reason }],
      },
    };
  }
}

export const notFound = (what: string) =>
  new GceError(404, 'notFound', `The resource '${what}' was not found`);
export const alreadyExists = (what: string) =>
  new GceError(409, 'alreadyExists', `The resource '${what}' already exists`);
export const invalid = (message: string) =>
  new GceError(400, 'invalid', `Invalid value for field ${message}`);

/** An error carried by a DONE operation (`operation.error.errors[]`), as stockouts and quota are. */
export interface OperationError {
  readonly code: string;
  readonly message: string;
}

export const stockoutError = (zone: string, machineType: string): OperationError => ({
  code: 'ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS',
  message: `The zone 'projects/-/zones/${zone}' does not have enough resources available to fulfill the request. '(resource type:compute)'. Machine type ${machineType}.`,
});

export const quotaError = (metric: string, limit: number, region: string): OperationError => ({
  code: 'QUOTA_EXCEEDED',
  message: `Quota '${metric}' exceeded.  Limit: ${limit.toFixed(1)} in region ${region}.`,
});
