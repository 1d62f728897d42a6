/**
 * Characters YAML and JSON text never holds: C0 controls other than tab, line feed and
 * carriage return, DEL, and U+FFFD, which UTF-8 decoding puts where bytes were not UTF-8.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const NotText = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/;

/**
 * Why `text` is not a manifest file but binary data (an executable, an archive, a UTF-16
 * file), with where the first such character is; undefined for text. One line, whatever the
 * input, so a wrong file never floods the terminal with its bytes.
 */
export function binaryContentProblem(text: string): { message: string; line: number } | undefined {
  const match = NotText.exec(text);
  if (match === null) return undefined;
  const line = countLines(text, match.index);
  const what =
    match[0] === '\ufffd'
      ? 'bytes that are not UTF-8'
      : `control character 0x${match[0].charCodeAt(0).toString(16).padStart(2, '0')}`;
  return { message: `binary data, not YAML or JSON text (${what})`, line };
}

function countLines(text: string, end: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}
