/**
 * The part of a pino logger the AWS caches use; the operator's logger satisfies it, tests pass a
 * recording one. Kept structural so this package needs no pino dependency.
 */
export interface ProviderLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A logger that drops everything, for callers that do not care. */
export const SilentLogger: ProviderLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};
