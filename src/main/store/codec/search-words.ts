// The words the search index gets for one execution. The index keeps no positions (detail=none),
// so only which words occur matters: each word is given once, a fraction of the index work.
import type { EncodedExecution } from './encoded';

/** Search covers this many characters of each execution (a documented limit, not a loss: the payloads are stored whole). */
export const SEARCH_TEXT_LIMIT = 256 * 1024;

/** What the index tokenizer (unicode61) splits on: everything but letters, digits, private use. */
const SEPARATORS = /[^\p{L}\p{N}\p{Co}]+/u;

export function searchWords(e: EncodedExecution): string {
  const seen = new Set<string>();
  let budget = SEARCH_TEXT_LIMIT;
  const add = (text: string | undefined) => {
    if (!text || budget <= 0) return;
    const part = text.length > budget ? text.slice(0, budget) : text;
    budget -= part.length;
    // One split of the lower-cased text: far fewer allocations than a match object per word.
    for (const word of part.toLowerCase().split(SEPARATORS)) if (word !== '') seen.add(word);
  };
  for (const ref of e.search.refs) add(e.payloads[ref]);
  for (const text of e.search.extra) add(text);
  return [...seen].join(' ');
}
