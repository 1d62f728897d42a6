export * from './ec2-api.js';
export * from './iam-api.js';
export * from './permissions.js';
export * from './ssm-api.js';
