export * from './ec2-api.js';
