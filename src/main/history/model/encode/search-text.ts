// The text the search index gets for one execution: its payloads, error and block reason, as they
// are. FTS5's own tokenizer (C) splits and lower-cases them; doing that in JavaScript first to hand
// over each word once was measured 2–4× slower, for small payloads and for 256 KB ones alike.
import type { EncodedExecution } from './encoded';

/** Search covers this many characters of each execution (a documented limit, not a loss: the payloads are stored whole). */
export const SEARCH_TEXT_LIMIT = 256 * 1024;

export function searchText(e: EncodedExecution): string {
  let text = '';
  const add = (part: string | undefined) => {
    if (!part || text.length >= SEARCH_TEXT_LIMIT) return;
    if (text !== '') text += '\n';
    text += part.length > SEARCH_TEXT_LIMIT - text.length ? part.slice(0, SEARCH_TEXT_LIMIT - text.length) : part;
  };
  for (const ref of e.search.refs) add(e.payloads[ref]);
  for (const part of e.search.extra) add(part);
  return text;
}
