import { type EC2NodeClass, ec2NodeClassSchema, exampleEC2NodeClass } from '../apis/index.js';

/** A parsed (defaulted) EC2NodeClass from the example, with `spec` fields overridden. */
export function nodeClassFixture(spec: Partial<EC2NodeClass['spec']> = {}, name = 'default'): EC2NodeClass {
  const input = exampleEC2NodeClass();
  return ec2NodeClassSchema.parse({ ...input, metadata: { name }, spec: { ...input.spec, ...spec } });
}
