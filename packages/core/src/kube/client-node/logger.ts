/**
 * The logging the adapter needs, shaped like pino's methods (`logger.warn({ err }, 'message')`)
 * so a pino logger (or a child of one) can be passed as is.
 */
export interface KubeLogger {
  debug(bindings: Record<string, unknown>, message: string): void;
  info(bindings: Record<string, unknown>, message: string): void;
  warn(bindings: Record<string, unknown>, message: string): void;
  error(bindings: Record<string, unknown>, message: string): void;
}

/** A logger that drops everything, for callers that want no output. */
export const silentLogger: KubeLogger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
});
