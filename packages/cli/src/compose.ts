import type { CliServices } from './services.js';

export function createCliServices(): CliServices {
  throw new Error('the kinds are not wired in yet');
}
