import { AwsJsonError, type JsonAction, jsonString } from '../json/errors.js';
import type { ParameterSeed } from '../seed/parameters.js';

/** What the SSM actions read: the parameters by name, and the region for their ARNs. */
export interface SsmContext {
  readonly parameters: ReadonlyMap<string, ParameterSeed>;
  readonly region: string;
}

/** GetParameter (JSON 1.1, `X-Amz-Target: AmazonSSM.GetParameter`) for the public AMI parameters. */
const getParameter: JsonAction<SsmContext> = (input, ctx) => {
  const name = jsonString(input, 'Name', 'ValidationException');
  if (name === undefined) {
    throw new AwsJsonError(
      'ValidationException',
      "1 validation error detected: Value null at 'name' failed to satisfy constraint: Member must not be null",
    );
  }
  const parameter = ctx.parameters.get(name);
  if (parameter === undefined) throw new AwsJsonError('ParameterNotFound', `Parameter ${name} not found.`);
  return {
    Parameter: {
      Name: parameter.name,
      Type: 'String',
      Value: parameter.value,
      Version: 1,
      // JSON 1.1 timestamps are epoch seconds.
      LastModifiedDate: Date.parse(parameter.lastModified) / 1000,
      ARN: `arn:aws:ssm:${ctx.region}::parameter${parameter.name}`,
      DataType: 'aws:ec2:image',
    },
  };
};

/** The SSM actions the AWS provider calls (providers/aws/src/sdk/ssm-api.ts). */
export const SSM_ACTIONS: Readonly<Record<string, JsonAction<SsmContext>>> = { GetParameter: getParameter };
