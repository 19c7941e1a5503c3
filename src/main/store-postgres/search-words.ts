// Full-text search on PostgreSQL with the same meaning as the SQLite index (store/queries/search-syntax.ts):
// words are runs of letters and digits, compared lower-cased and without diacritics; a search means
// every word typed appears in the execution's payloads, `word*` being a prefix. The words are split here
// rather than by a PostgreSQL text search configuration, whose parser depends on the server's locale
// and keeps e-mail addresses and URLs whole, so that both stores find the same executions.
import type { EncodedExecution } from '../store/sql/encoded';
import { searchText } from '../store/sql/search-text';

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
/** PostgreSQL refuses lexemes over 2 KB and tsvectors over 1 MB: longer words are not searchable. */
const MAX_WORD = 500;
const MAX_VECTOR_CHARS = 600_000;

function fold(word: string): string {
  // Kept to letters and digits after folding too: a quote can never reach the literal.
  return (word.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().match(TOKEN) ?? []).join('');
}

/** The tsvector literal of an execution: its distinct words, quoted (they hold no quote or backslash). */
export function searchVector(e: EncodedExecution): string {
  const words = new Set<string>();
  let size = 0;
  for (const raw of searchText(e).match(TOKEN) ?? []) {
    if (raw.length > MAX_WORD) continue;
    const w = fold(raw);
    if (w === '' || words.has(w)) continue;
    size += w.length + 3;
    if (size > MAX_VECTOR_CHARS) break;
    words.add(w);
  }
  return [...words].map((w) => `'${w}'`).join(' ');
}

/** What a person typed → a tsquery literal (all words, a trailing * a prefix), or undefined if it has no word. */
export function toTsQuery(text: string): string | undefined {
  const terms: string[] = [];
  for (const raw of text.split(/\s+/)) {
    const prefix = raw.length > 1 && raw.endsWith('*');
    const tokens = (raw.match(TOKEN) ?? []).map(fold).filter((t) => t !== '');
    tokens.forEach((token, i) => terms.push(`'${token}'${prefix && i === tokens.length - 1 ? ':*' : ''}`));
  }
  return terms.length > 0 ? terms.join(' & ') : undefined;
}
