/**
 * Text broken into lines of at most `width` characters at spaces (pure), so a paragraph reads
 * in a terminal; a word longer than the width gets a line of its own.
 */
export function wrapText(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
