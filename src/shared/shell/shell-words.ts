// Splits a command line the way a POSIX shell would for the simple cases `--server-command` and the
// new-gateway wizard (a pasted command line) need:
// whitespace separates words, '…' is literal, "…" allows \" \\ \$ \`, and \ escapes outside quotes.
// No expansion of variables, globs or substitutions: what you type is what gets spawned.

export class ShellSyntaxError extends Error {
  override name = 'ShellSyntaxError';
}

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new ShellSyntaxError(`unterminated single quote at position ${i + 1}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= line.length) throw new ShellSyntaxError('unterminated double quote');
        const c = line[i]!;
        if (c === '"') break;
        if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) {
          word += line[i + 1];
          i += 2;
        } else {
          word += c;
          i++;
        }
      }
      i++;
    } else if (ch === '\\') {
      if (i + 1 >= line.length) throw new ShellSyntaxError('trailing backslash');
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Quotes words so that splitCommandLine gives them back: how a command is shown to be copied and re-run. */
export function quoteCommandLine(words: readonly string[]): string {
  return words.map((w) => (w !== '' && /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
