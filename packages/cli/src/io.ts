/** Where a command reads and writes; injected so tests run commands in-process. */
export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  stdin: NodeJS.ReadableStream;
  cwd: string;
}

/**
 * The most standard input a command reads: 64 MiB, far above any cluster's manifests, so
 * `-f -` fed an endless or enormous stream fails with a clear error instead of exhausting
 * memory.
 */
export const MaxStdinBytes = 64 * 1024 * 1024;

/**
 * Reads a stream to its end as UTF-8 text; rejects, saying so, once it holds more than
 * `limit` bytes (the rest is not read).
 */
export async function readAll(stream: NodeJS.ReadableStream, limit = MaxStdinBytes): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limit) {
      throw new Error(
        `more than ${formatBytes(limit)} on standard input; nodewright reads at most ${formatBytes(limit)} from it`,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** Writes each line followed by a newline. */
export function writeLines(stream: { write(chunk: string): unknown }, lines: readonly string[]): void {
  if (lines.length > 0) stream.write(`${lines.join('\n')}\n`);
}

/** The longest message line printed; the rest of a longer one is cut (see capMessage). */
export const MaxMessageLength = 400;

// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping them is the point
const ControlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * A message cut to `max` characters, saying how much was cut, so one bad input (a minified
 * file, a value kilobytes long) cannot flood the terminal. Control characters are shown
 * escaped, so a message never moves the cursor or rings the bell.
 */
export function capMessage(text: string, max = MaxMessageLength): string {
  const clean = text.replace(ControlCharacters, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  if (clean.length <= max) return clean;
  const cut = clean.length - max;
  return `${clean.slice(0, max)}... (${cut} more characters)`;
}

/** Writes each message line, capped (capMessage), followed by a newline: for stderr. */
export function writeErrors(stream: { write(chunk: string): unknown }, lines: readonly string[]): void {
  writeLines(
    stream,
    lines.flatMap((line) => line.split('\n')).map((line) => capMessage(line)),
  );
}
