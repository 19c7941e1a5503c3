// Full-text search on PostgreSQL with the same meaning as the SQLite index (history/sqlite/queries/search-syntax.ts):
// words are runs of letters and digits, compared lower-cased and without diacritics; a search means
// every word typed appears in the execution's payloads, `word*` being a prefix. The words are split here
// rather than by a PostgreSQL text search configuration, whose parser depends on the server's locale
// and keeps e-mail addresses and URLs whole, so that both stores find the same executions.
import type { EncodedExecution } from '../model/encode/encoded';
import { searchText } from '../model/encode/search-text';

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
/** PostgreSQL refuses lexemes over 2 KB and tsvectors over 1 MB: longer words are not searchable. */
const MAX_WORD = 500;
const MAX_VECTOR_CHARS = 600_000;

const NON_ASCII = /[^ -~]/; // anything outside printable ASCII (tokens hold no spaces or control characters)

function fold(word: string): string {
  // ASCII words (nearly all of them) only need lower-casing; the rest lose their diacritics like SQLite's
  // tokenizer does, and are kept to letters and digits after folding: a quote never reaches the literal.
  if (!NON_ASCII.test(word)) return word.toLowerCase();
  return (
    word
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(TOKEN) ?? []
  ).join('');
}

/** The tsvector literal of an execution: its distinct words, quoted (they hold no quote or backslash). */
export function searchVector(e: EncodedExecution): string {
  const seen = new Set<string>();
  const words = new Set<string>();
  let size = 0;
  for (const raw of searchText(e).match(TOKEN) ?? []) {
    if (raw.length > MAX_WORD || seen.has(raw)) continue;
    seen.add(raw);
    const w = fold(raw);
    if (w === '' || words.has(w)) continue;
    size += w.length + 3;
    if (size > MAX_VECTOR_CHARS) break;
    words.add(w);
  }
  let out = '';
  for (const w of words) out += out === '' ? `'${w}'` : ` '${w}'`;
  return out;
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
