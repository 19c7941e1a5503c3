// The reader of `application/json` answer bodies: one value, newline-delimited values, values back to back,
// in any chunking, strings holding braces, quotes and escapes.
import { describe, expect, it } from 'vitest';
import { JsonValueSplitter } from '../../src/main/gateway/wire/json-values';

function split(chunks: string[]): string[] {
  const splitter = new JsonValueSplitter();
  return chunks.flatMap((c) => splitter.push(c));
}

describe('JsonValueSplitter', () => {
  const messages = [
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'a{', progress: 1 } },
    { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'quote " and \\ and } ] and \u00e9' } },
    { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '[[{' }] } },
  ];
  const lines = messages.map((m) => JSON.stringify(m)).join('\n') + '\n';

  it('splits newline-delimited JSON whatever the chunk boundaries', () => {
    for (const size of [1, 2, 3, 7, 64, lines.length]) {
      const chunks: string[] = [];
      for (let i = 0; i < lines.length; i += size) chunks.push(lines.slice(i, i + size));
      expect(split(chunks).map((t) => JSON.parse(t) as unknown)).toEqual(messages);
    }
  });

  it('reads one pretty-printed value, and values back to back without newlines', () => {
    expect(split([JSON.stringify(messages[2], null, 2)]).map((t) => JSON.parse(t) as unknown)).toEqual([messages[2]]);
    expect(split([messages.map((m) => JSON.stringify(m)).join('')]).map((t) => JSON.parse(t) as unknown)).toEqual(messages);
  });

  it('gives nothing for an unfinished value or for text that holds no JSON value', () => {
    expect(split(['{"jsonrpc":"2.0","id":1,"result":{'])).toEqual([]);
    expect(split(['Internal Server Error'])).toEqual([]);
  });
});
