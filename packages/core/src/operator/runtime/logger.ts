import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import { textLogLine } from './text-log-line.js';

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
  /** `json` (default): one JSON object per line; `text`: the same fields as readable text. */
  readonly format?: LogFormat;
}

export type LogFormat = 'json' | 'text';

/**
 * Field names that hold secrets wherever they appear in a logged object, up to three levels
 * deep (an SDK error's `request.headers.authorization`). Credentials reach the process from the
 * environment or files only; these keep them out of the logs when an error carries them.
 */
const SecretKeys = [
  'authorization',
  'Authorization',
  'password',
  'token',
  'accessToken',
  'sessionToken',
  'secret',
  'clientSecret',
  'secretAccessKey',
  'apiKey',
];

function redactPaths(): string[] {
  return SecretKeys.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]);
}

/**
 * A pino logger writing lines shaped like Karpenter's: `{"level":"INFO","time":"<RFC 3339>",
 * "logger":"controller","message":"...","controller":"nodeclaim.lifecycle","NodeClaim":
 * {"name":"..."}}`. Controllers bind `controller` with `child`; objects are logged under their
 * kind (`NodeClaim`, `Node`, `NodePool`, `Pod`) with `{name, namespace?}`.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const now = options.now ?? Date.now;
  const destination = options.destination ?? pino.destination({ sync: false });
  return pino(
    {
      level: options.level ?? 'info',
      messageKey: 'message',
      errorKey: 'error',
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      base: { logger: options.name ?? 'controller' },
      timestamp: () => `,"time":"${new Date(now()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label.toUpperCase() }) },
      redact: { paths: redactPaths(), censor: '[REDACTED]' },
    },
    options.format === 'text' ? textDestination(destination) : destination,
  );
}

function textDestination(destination: DestinationStream): DestinationStream {
  return { write: (line: string) => destination.write(textLogLine(line)) };
}

/** `{name, namespace?}`, the form objects take in log lines (`{NodeClaim: objectRef(claim)}`). */
export function objectRef(obj: { metadata: { name?: string; namespace?: string } }): {
  name: string;
  namespace?: string;
} {
  const name = obj.metadata.name ?? '';
  return obj.metadata.namespace === undefined ? { name } : { name, namespace: obj.metadata.namespace };
}
