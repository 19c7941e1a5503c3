// JSON-RPC ids that a JavaScript number cannot carry back byte-exactly (`1.5` breaks SDK backends, which
// take integer ids only; `1e999` parses to Infinity and serializes as null; `9007199254740993` loses its
// last digit). The stdio listener swaps such an id for a string token on the way in and writes the raw
// text back in the answer. Tokens leave the table with their answer; the table is bounded as well.

const TOKEN_PREFIX = 'jsonrpc-raw-id:';
/** Unanswered odd ids kept at most (a cancelled request is never answered). */
const MAX_HELD = 10_000;

/** The id as the client wrote it, for records: a token becomes its raw text. */
export function recordedId(id: string | number): string | number {
  return typeof id === 'string' && id.startsWith(TOKEN_PREFIX) ? id.slice(TOKEN_PREFIX.length) : id;
}

export class RawIds {
  private readonly held = new Map<string, string>();

  /** The id to use inside the gateway for this numeric id, or undefined when the number is exact. */
  tokenFor(id: number, line: string): string | undefined {
    if (Number.isSafeInteger(id) && !Object.is(id, -0)) {
      // The common case, as SDK clients write it: nothing to look up.
      if (line.startsWith(`{"jsonrpc":"2.0","id":${id},`)) return undefined;
      // Still check the text (`1.0`, `1e2` are integers too).
      const raw = topLevelNumber(line, 'id');
      if (raw === undefined || raw === String(id)) return undefined;
      return this.hold(raw);
    }
    const raw = topLevelNumber(line, 'id');
    return raw === undefined ? undefined : this.hold(raw);
  }

  /** The answer's line with the raw id text, when its id is a token (which is then forgotten). */
  serialize(message: { id?: unknown }): string | undefined {
    if (this.held.size === 0 || typeof message.id !== 'string') return undefined;
    const raw = this.held.get(message.id);
    if (raw === undefined) return undefined;
    this.held.delete(message.id);
    const { jsonrpc: _jsonrpc, id: _id, ...rest } = message as Record<string, unknown>;
    const tail = JSON.stringify(rest).slice(1);
    return `{"jsonrpc":"2.0","id":${raw}${tail === '}' ? '' : ','}${tail}`;
  }

  get size(): number {
    return this.held.size;
  }

  private hold(raw: string): string {
    const token = `${TOKEN_PREFIX}${raw}`;
    if (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value!);
    this.held.set(token, raw);
    return token;
  }
}

/**
 * The text of a number member of the top-level object (`"id": 1.5` → `1.5`), or undefined. A linear scan
 * that tracks strings and nesting; it stops at the member, which JSON-RPC clients put near the start.
 */
export function topLevelNumber(line: string, key: string): string | undefined {
  const quoted = `"${key}"`;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < line.length; i++) {
        const d = line.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      if (depth !== 1 || line.slice(start, i + 1) !== quoted) continue;
      let j = i + 1;
      while (j < line.length && /\s/.test(line[j]!)) j++;
      if (line[j] !== ':') continue;
      j++;
      while (j < line.length && /\s/.test(line[j]!)) j++;
      const m = /^-?[0-9][0-9.eE+-]*/.exec(line.slice(j, j + 400));
      return m ? m[0] : undefined;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) depth++;
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return undefined;
}
