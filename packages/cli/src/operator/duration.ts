const unitMs: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds in a Go-style duration flag (`500ms`, `1s`, `1.5s`, `1m30s`); undefined when
 * the text is not one. Units: ms, s, m, h; a bare `0` is zero.
 */
export function flagDurationMs(text: string): number | undefined {
  if (text === '0') return 0;
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(amount) * unitMs[unit!]!;
  }
  return Math.round(total);
}
