// PostgreSQL text cannot hold the NUL character: a parameter with one is refused (22021), and so is a
// "\u0000" escape that json_to_recordset turns into text (22P05). Tool names, targets, methods and search
// words come from clients, so one NUL would cost the record its place in the history (the batch is split
// until that record alone fails): a client could keep its call out of the audit trail. These columns hold
// U+FFFD in its place; the record's own JSON (a text of escapes) keeps the original.
const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';

export function nulFree(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, REPLACEMENT) : text;
}

/**
 * JSON.stringify of rows for json_to_recordset, with every NUL in a string value replaced. The fast path
 * is one search: JSON.stringify writes a NUL as the escape \u0000, so a text without that escape has none
 * (a literal backslash-u0000 in the data also matches, and only costs the slower exact pass).
 */
export function nulFreeJson(rows: unknown): string {
  const json = JSON.stringify(rows);
  if (!json.includes('\\u0000')) return json;
  return JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'string' ? nulFree(value) : value));
}
