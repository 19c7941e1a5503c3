// Secret formats and their detection, shared by the security samples (secretless-redactor,
// cross-boundary-guard) and by anything that must not keep secrets at rest (the store's redaction).
// A secret is replaced by a stable handle `<mcp:secret-ref:{formatId}:{fnv1a32 as 8 hex}>`, so two
// occurrences of the same value get the same handle and the value itself never leaves.
import { setOwnKey } from '../../../shared/protocol/canonical';

export interface SecretFormat {
  id: string;
  description: string;
  /** Must be global (`g`); lookarounds keep a match from being a slice of a longer token. */
  pattern: RegExp;
  /**
   * Finds exactly what `pattern` finds with matchAll, in linear time, for a pattern whose direct run
   * is not (a bounded but wide window retried at every start). findSecrets prefers it.
   */
  find?: (text: string) => Iterable<{ index: number; value: string }>;
}

export const SECRET_FORMATS: readonly SecretFormat[] = [
  {
    id: 'aws_access_key',
    description: 'AWS access key id (AKIA + 16 upper-case letters or digits)',
    pattern: /(?<![A-Za-z0-9])AKIA[0-9A-Z]{16}(?![A-Za-z0-9])/g,
  },
  {
    // Real classic PATs carry 36 characters after the prefix; shorter test tokens (the conformance
    // fixtures use 25) must be caught too, so anything from 20 on counts.
    id: 'github_pat',
    description: 'GitHub personal access token (ghp_ + 20 or more letters or digits)',
    pattern: /(?<![A-Za-z0-9_])ghp_[A-Za-z0-9]{20,255}(?![A-Za-z0-9])/g,
  },
  {
    id: 'github_fine_grained_pat',
    description: 'GitHub fine-grained personal access token (github_pat_…)',
    pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])/g,
  },
  {
    id: 'stripe_secret_live',
    description: 'Stripe live secret key (sk_live_ + 16 or more letters or digits)',
    pattern: /(?<![A-Za-z0-9_])sk_live_[A-Za-z0-9]{16,247}(?![A-Za-z0-9])/g,
  },
  {
    id: 'slack_token',
    description: 'Slack token (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-)',
    pattern: /(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,250}(?![A-Za-z0-9-])/g,
  },
  {
    id: 'private_key',
    description: 'PEM private key block',
    pattern: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[\s\S]{16,8192}?-----END (?:[A-Z]+ )?PRIVATE KEY-----/g,
    // Run directly, the lazy 8 KB body is retried at every BEGIN line: a payload of BEGIN lines
    // without an END costs ~8,000 steps each (1 MB: seconds). See findPemBlocks.
    find: findPemBlocks,
  },
];

export interface SecretMatch {
  formatId: string;
  value: string;
  index: number;
}

/**
 * Reusable copies of global patterns: `matchAll` compiles a fresh RegExp on every call (it clones its
 * argument), which with the samples in the gateway's process was ~2 % of its thread (the formats are scanned
 * for every string of every payload). A copy, so the caller's pattern keeps its own lastIndex.
 */
const scanners = new WeakMap<RegExp, RegExp>();

/** What `text.matchAll(pattern)` yields, in order, without compiling `pattern` again. */
export function allMatches(text: string, pattern: RegExp): RegExpExecArray[] {
  if (!pattern.global) throw new TypeError(`allMatches needs a global pattern, got ${String(pattern)}`);
  let scanner = scanners.get(pattern);
  if (!scanner) {
    scanner = new RegExp(pattern.source, pattern.flags);
    scanners.set(pattern, scanner);
  }
  scanner.lastIndex = pattern.lastIndex; // where matchAll starts too (0 for patterns only ever scanned this way)
  const out: RegExpExecArray[] = [];
  for (let m = scanner.exec(text); m !== null; m = scanner.exec(text)) {
    out.push(m);
    // As matchAll: an empty match moves on by one character (a code point with the u or v flag).
    if (m[0] === '') scanner.lastIndex = nextIndex(text, scanner.lastIndex, scanner.unicode || scanner.flags.includes('v'));
  }
  return out;
}

function nextIndex(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const first = text.charCodeAt(index);
  const second = text.charCodeAt(index + 1);
  return first >= 0xd800 && first <= 0xdbff && second >= 0xdc00 && second <= 0xdfff ? index + 2 : index + 1;
}

/** All secrets in `text`, left to right, without overlaps (an earlier, then longer match wins). */
export function findSecrets(text: string, formats: readonly SecretFormat[] = SECRET_FORMATS): SecretMatch[] {
  const all: SecretMatch[] = [];
  for (const f of formats) {
    if (f.find) for (const m of f.find(text)) all.push({ formatId: f.id, value: m.value, index: m.index });
    else for (const m of allMatches(text, f.pattern)) all.push({ formatId: f.id, value: m[0], index: m.index });
  }
  all.sort((a, b) => a.index - b.index || b.value.length - a.value.length);
  const out: SecretMatch[] = [];
  let end = -1;
  for (const m of all) {
    if (m.index < end) continue;
    out.push(m);
    end = m.index + m.value.length;
  }
  return out;
}

const PEM_BEGIN = /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/g;
// Zero-width, so END lines that overlap (one's closing dashes opening the next) are all seen.
const PEM_END = /(?=(-----END (?:[A-Z]+ )?PRIVATE KEY-----))/g;
const PEM_BODY_MIN = 16;
const PEM_BODY_MAX = 8192;

/**
 * The private_key pattern's matches in one pass over BEGIN lines and one over END lines: a block is
 * a BEGIN line and the first END line that starts 16 to 8192 characters after it (what the lazy body
 * picks); after a block the scan resumes at its end, after a BEGIN line without one at the next
 * character, as matchAll does.
 */
export function* findPemBlocks(text: string): Generator<{ index: number; value: string }> {
  const ends: { at: number; length: number }[] = [];
  for (const m of allMatches(text, PEM_END)) ends.push({ at: m.index, length: m[1]?.length ?? 0 });
  if (ends.length === 0) return;
  const begin = new RegExp(PEM_BEGIN.source, 'g');
  let next = 0; // first END line not yet ruled out; BEGIN lines only move right, so it only moves right
  let m: RegExpExecArray | null;
  while ((m = begin.exec(text)) !== null) {
    const bodyStart = m.index + m[0].length;
    while (next < ends.length && ends[next]!.at < bodyStart + PEM_BODY_MIN) next++;
    const end = ends[next];
    if (end && end.at <= bodyStart + PEM_BODY_MAX) {
      const stop = end.at + end.length;
      yield { index: m.index, value: text.slice(m.index, stop) };
      begin.lastIndex = stop;
    } else begin.lastIndex = m.index + 1;
  }
}

/** FNV-1a, 32 bit, over the UTF-8 bytes of `text`. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function fnv1a32Hex(text: string): string {
  return fnv1a32(text).toString(16).padStart(8, '0');
}

/** The handle that stands for a secret: `<mcp:secret-ref:aws_access_key:1a2b3c4d>`. */
export function secretRef(formatId: string, value: string): string {
  return `<mcp:secret-ref:${formatId}:${fnv1a32Hex(value)}>`;
}

export interface Redaction {
  formatId: string;
  ref: string;
}

/** Replaces every secret in a string by its handle. */
export function redactSecretsInText(text: string, formats: readonly SecretFormat[] = SECRET_FORMATS): { text: string; redactions: Redaction[] } {
  const matches = findSecrets(text, formats);
  if (matches.length === 0) return { text, redactions: [] };
  let out = '';
  let cursor = 0;
  const redactions: Redaction[] = [];
  for (const m of matches) {
    const ref = secretRef(m.formatId, m.value);
    out += text.slice(cursor, m.index) + ref;
    cursor = m.index + m.value.length;
    redactions.push({ formatId: m.formatId, ref });
  }
  return { text: out + text.slice(cursor), redactions };
}

/**
 * Replaces secrets in every string of a JSON value (object keys included), returning a new value;
 * the input is not touched. `redactions` is empty when nothing was found.
 */
export function redactSecrets<T>(value: T, formats: readonly SecretFormat[] = SECRET_FORMATS): { value: T; redactions: Redaction[] } {
  const redactions: Redaction[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const r = redactSecretsInText(v, formats);
      redactions.push(...r.redactions);
      return r.text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      // setOwnKey: an own `__proto__` key (legal JSON, made by JSON.parse) must stay a key, not become the prototype.
      for (const [k, inner] of Object.entries(v as Record<string, unknown>)) setOwnKey(out, walk(k) as string, walk(inner));
      return out;
    }
    return v;
  };
  return { value: walk(value) as T, redactions };
}
