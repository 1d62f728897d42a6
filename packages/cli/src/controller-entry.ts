// `@nodewright/cli/controller`: what a provider's own controller binary imports. It loads the
// controller alone, not the other commands (the controller keeps what it loads).
export type { ProviderPlugin } from '@nodewright/core/plugin';
export { type RunControllerOptions, runController } from './run-controller.js';
