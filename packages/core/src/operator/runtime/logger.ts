import { type DestinationStream, type Level, type Logger, pino } from 'pino';

/** How to build the operator's logger. */
export interface LoggerOptions {
  /** Minimum level; default `info`. */
  readonly level?: Level | 'silent';
  /** Where JSON lines go; default stdout. Tests pass a stream to capture them. */
  readonly destination?: DestinationStream;
  /** The `logger` field of every line; default `controller`, as Karpenter writes it. */
  readonly name?: string;
  /** Time source for the `time` field (ms since epoch); the injected clock in simulations. */
  readonly now?: () => number;
}

/**
 * A pino logger writing lines shaped like Karpenter's: `{"level":"INFO","time":"<RFC 3339>",
 * "logger":"controller","message":"...","controller":"nodeclaim.lifecycle","NodeClaim":
 * {"name":"..."}}`. Controllers bind `controller` with `child`; objects are logged under their
 * kind (`NodeClaim`, `Node`, `NodePool`, `Pod`) with `{name, namespace?}`.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const now = options.now ?? Date.now;
  return pino(
    {
      level: options.level ?? 'info',
      messageKey: 'message',
      errorKey: 'error',
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      base: { logger: options.name ?? 'controller' },
      timestamp: () => `,"time":"${new Date(now()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label.toUpperCase() }) },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}

/** `{name, namespace?}`, the form objects take in log lines (`{NodeClaim: objectRef(claim)}`). */
export function objectRef(obj: { metadata: { name?: string; namespace?: string } }): {
  name: string;
  namespace?: string;
} {
  const name = obj.metadata.name ?? '';
  return obj.metadata.namespace === undefined ? { name } : { name, namespace: obj.metadata.namespace };
}
