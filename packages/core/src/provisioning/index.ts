export {
  type ProvisioningDependencies,
  type ProvisioningOptions,
  provisioningControllers,
} from '../operator/controllers.js';
export * from './batch-window.js';
export * from './batcher.js';
export * from './create-limits.js';
export * from './events.js';
export * from './metrics.js';
export * from './new-nodeclaim.js';
export * from './provisioner.js';
export * from './provisioner-controller.js';
