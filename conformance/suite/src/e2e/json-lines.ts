/** One structured log line of the controller (pino JSON), with the raw text kept for reports. */
export interface LogEntry {
  readonly [key: string]: unknown;
  readonly message?: string;
}

/**
 * Splits a byte stream into lines and parses each as JSON. A chunk may end mid-line; the rest
 * is kept until the next chunk. Lines that are not JSON objects are passed to `onText` (a
 * controller may print a plain panic or a Node warning).
 */
export class JsonLineSplitter {
  #rest = '';
  readonly #onEntry: (entry: LogEntry, line: string) => void;
  readonly #onText: (line: string) => void;

  constructor(onEntry: (entry: LogEntry, line: string) => void, onText: (line: string) => void = () => {}) {
    this.#onEntry = onEntry;
    this.#onText = onText;
  }

  push(chunk: string): void {
    const lines = (this.#rest + chunk).split('\n');
    this.#rest = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  /** Flushes a last line without a newline (at process exit). */
  end(): void {
    const rest = this.#rest;
    this.#rest = '';
    if (rest !== '') this.#line(rest);
  }

  #line(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.#onText(line);
      return;
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      this.#onEntry(parsed as LogEntry, line);
    } else {
      this.#onText(line);
    }
  }
}
