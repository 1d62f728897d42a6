/**
 * An EC2 API error as the wire carries it: the code the SDK turns into the exception's `name`,
 * the message, and the HTTP status.
 */
export class Ec2Error extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = code;
  }
}

export const notFound = {
  instance: (id: string) =>
    new Ec2Error('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`),
  launchTemplateName: () =>
    new Ec2Error(
      'InvalidLaunchTemplateName.NotFoundException',
      'At least one of the launch templates specified in the request does not exist.',
    ),
  launchTemplateId: (id: string) =>
    new Ec2Error(
      'InvalidLaunchTemplateId.NotFound',
      `The specified launch template, with template ID ${id}, does not exist.`,
    ),
  subnet: (id: string) => new Ec2Error('InvalidSubnetID.NotFound', `The subnet ID '${id}' does not exist`),
  group: (id: string) => new Ec2Error('InvalidGroup.NotFound', `The security group '${id}' does not exist`),
  image: (id: string) => new Ec2Error('InvalidAMIID.NotFound', `The image id '[${id}]' does not exist`),
};

/** A request field that is missing or malformed; the message names the field. */
export function invalidParameter(field: string, detail: string): Ec2Error {
  return new Ec2Error('InvalidParameterValue', `${field}: ${detail}`);
}

export function missingParameter(field: string): Ec2Error {
  return new Ec2Error('MissingParameter', `The request must contain the parameter ${field}`);
}
