// Turns what a person types into an FTS5 query. The index keeps no positions (detail=none: a third
// of the size and faster to write), so a search means: every word typed appears somewhere in the
// execution's payloads. Words are split the way the index tokenizer splits them (EMAIL_REDACTED →
// email, redacted); a trailing * makes the last word a prefix. FTS5 operators typed by the user are
// taken literally, so a search can never be a syntax error.
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

export function toFtsQuery(text: string): string | undefined {
  const terms: string[] = [];
  for (const raw of text.split(/\s+/)) {
    const prefix = raw.length > 1 && raw.endsWith('*');
    const tokens = raw.match(TOKEN) ?? [];
    tokens.forEach((token, i) => {
      terms.push(`"${token}"${prefix && i === tokens.length - 1 ? '*' : ''}`);
    });
  }
  return terms.length > 0 ? terms.join(' ') : undefined;
}
