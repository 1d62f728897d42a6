import type { Command } from './command.js';

/** The top-level help: synopsis and the command list. */
export function topLevelUsage(commands: readonly Pick<Command, 'name' | 'summary'>[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const list = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `usage: nodewright <command> [options]

Commands:
${list}

Run "nodewright <command> --help" for a command's options; "nodewright --version" for the version.
Exit status: 0 success; 1 invalid input or problems found; 2 usage error.
`;
}

/** What a usage error prints: the problem, the command's synopsis and where to find more. */
export function commandUsageError(command: Command, problem: string): string {
  return `nodewright ${command.name}: ${problem}
usage: ${command.usage}
Run "nodewright ${command.name} --help" for details.
`;
}
