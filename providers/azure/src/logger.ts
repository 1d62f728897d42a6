/**
 * The part of a pino logger the Azure provider uses; the operator's logger satisfies it, tests
 * pass a recording one. Structural, so this package needs no pino dependency.
 */
export interface ProviderLogger {
  debug?(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A logger that drops everything. */
export const SilentLogger: ProviderLogger = { info: () => {}, warn: () => {}, error: () => {} };
