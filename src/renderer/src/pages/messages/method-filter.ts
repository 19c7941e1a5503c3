// The Method filter's text: a method to keep (`tools/call`), or methods to leave out, each with a leading
// minus (`-ping`, several separated by commas or spaces: `-ping, -notifications/progress`), or both. The
// store runs what this makes of it (MessageFilter.method and excludeMethods).
import type { MessageFilter } from '../../../../shared/api/models-messages';

export function parseMethodFilter(text: string | undefined): Pick<MessageFilter, 'method' | 'excludeMethods'> {
  const out: Pick<MessageFilter, 'method' | 'excludeMethods'> = {};
  const excluded: string[] = [];
  for (const token of (text ?? '').split(/[\s,]+/)) {
    if (token.startsWith('-')) {
      const name = token.slice(1);
      if (name && !excluded.includes(name)) excluded.push(name);
    } else if (token && out.method === undefined) out.method = token;
  }
  if (excluded.length > 0) out.excludeMethods = excluded.slice(0, 50);
  return out;
}
