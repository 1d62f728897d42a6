/** An IAM error as the Query wire carries it: code, message, HTTP status, fault side. */
export class IamError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly type: 'Sender' | 'Receiver' = 'Sender',
  ) {
    super(message);
    this.name = code;
  }
}

export const iamErrors = {
  noSuchProfile: (name: string) =>
    new IamError('NoSuchEntity', `Instance Profile ${name} cannot be found.`, 404),
  noSuchRole: (name: string) =>
    new IamError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404),
  profileExists: (name: string) =>
    new IamError('EntityAlreadyExists', `Instance Profile ${name} already exists.`, 409),
  missing: (field: string) =>
    new IamError(
      'ValidationError',
      `1 validation error detected: Value null at '${field}' failed to satisfy constraint: Member must not be null`,
    ),
};
