// What PostgreSQL's columns cannot hold, made storable. Tool names, targets, methods, session ids and error
// codes come from clients and backends; a value the server refuses costs its record its place in the
// history (the batch is split until that record alone fails), so a client could keep its call out of the
// audit trail. SQLite stores all of these. The columns get a storable stand-in; the record's own JSON (a
// text of escapes) keeps the original, which is what the detail view and exports show.
//   - NUL: text cannot hold it (22021 as a parameter, 22P05 as a JSON escape): U+FFFD instead.
//   - Length: a btree index entry must fit a third of a page (~2.7 kB; 54000): indexed texts are cut to
//     INDEXED_TEXT_MAX characters (at most 4 bytes each in UTF-8).
//   - Error codes: the column is a 32-bit integer (22003 past it): null instead.
const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';
export const INDEXED_TEXT_MAX = 512;

export function nulFree(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, REPLACEMENT) : text;
}

/** A text for an indexed column: NUL-free and at most INDEXED_TEXT_MAX characters, never half a surrogate pair. */
export function indexedText<T extends string | null | undefined>(text: T): T {
  if (typeof text !== 'string') return text;
  let out = nulFree(text);
  if (out.length > INDEXED_TEXT_MAX) {
    const cut = out.charCodeAt(INDEXED_TEXT_MAX - 1);
    out = out.slice(0, cut >= 0xd800 && cut <= 0xdbff ? INDEXED_TEXT_MAX - 1 : INDEXED_TEXT_MAX);
  }
  return out as T;
}

/** A JSON-RPC error code for an integer column, or null when it does not fit. */
export function int32OrNull(code: number | null | undefined): number | null {
  return typeof code === 'number' && Number.isInteger(code) && code >= -(2 ** 31) && code < 2 ** 31 ? code : null;
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
