import type { ProviderContext } from '@nodewright/core/operator';

/**
 * The logger calls the provider makes (pino's, from the ProviderContext); narrowed so tests can
 * record log lines with a plain object.
 */
export type AwsLogger = Pick<ProviderContext['logger'], 'debug' | 'info' | 'warn' | 'error'>;
