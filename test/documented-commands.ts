import { join } from 'node:path';

/** A `nodewright` command found in a shell block of a markdown file, ready to run. */
export interface DocumentedCommand {
  readonly doc: string;
  readonly line: number;
  /** The command after `nodewright`, as the docs spell it, less comment and redirection. */
  readonly text: string;
  /** The arguments to run: `~` is the given home, an `--out DIR` is moved into the scratch folder. */
  readonly args: readonly string[];
  /** Where an `--out` argument now points, if the command has one. */
  readonly outDir?: string;
  /** The file a `< FILE` redirection feeds to standard input, relative to the repository. */
  readonly stdin?: string;
}

const invocation = /(?:^|&&\s*)pnpm -s nodewright (.+)$/;

/**
 * The `pnpm -s nodewright ...` commands in the ```sh blocks of one markdown file. A command
 * ends at `&&`, `|`, `>`, `<` or a `#` comment; stdout redirection is left to the caller, who
 * captures it, and a `< FILE` is returned as the command's `stdin`.
 */
export function documentedCommands(
  doc: string,
  markdown: string,
  places: { readonly scratch: string; readonly home: string },
): DocumentedCommand[] {
  const commands: DocumentedCommand[] = [];
  let inShell = false;
  markdown.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line.startsWith('```')) {
      inShell = !inShell && /^```(sh|bash|shell)\s*$/.test(line);
      return;
    }
    if (!inShell) return;
    const match = invocation.exec(line);
    if (match?.[1] === undefined) return;
    const [command = '', redirected] = match[1].split(/\s<\s+/);
    const stdin = redirected?.split(/\s/)[0];
    const text = command.split(/\s(?:&&|\||>|#)/)[0]?.trim() ?? '';
    const words = text.split(/\s+/);
    let outDir: string | undefined;
    const args = words.map((word, k) => {
      if (words[k - 1] === '--out') {
        outDir = join(places.scratch, `${commands.length}-${word.replace(/\W+/g, '')}`);
        return outDir;
      }
      return word.startsWith('~/') ? join(places.home, word.slice(2)) : word;
    });
    commands.push({
      doc,
      line: i + 1,
      text,
      args,
      ...(outDir === undefined ? {} : { outDir }),
      ...(stdin === undefined ? {} : { stdin }),
    });
  });
  return commands;
}
