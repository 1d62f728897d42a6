export * from './ec2nodeclass-v1beta1.js';
