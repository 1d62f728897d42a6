/** Where a command reads and writes; injected so tests run commands in-process. */
export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  stdin: NodeJS.ReadableStream;
  cwd: string;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  io.stderr.write(`nodewright: unknown command ${argv[0] ?? ''}\n`);
  return 2;
}
