// email-redactor (C# InterceptorServerSample / TS examples): replaces e-mail addresses in the
// serialized request with [EMAIL_REDACTED]. Priority -1000 (sanitisation band) so it runs early.
import { mutator, type InterceptorRegistration } from '../host/types';
import { applyOverrides, jsonText, type SampleOverrides } from './common';

/**
 * The reference samples' pattern, kept as the definition of what counts as an address. It is not
 * run on payloads: a backtracking engine restarts `[…]+` at every letter of a long run without `@`,
 * so 64 KB of letters cost seconds (quadratic). `findEmails` matches exactly what this pattern
 * matches with `replace(…, 'g')`, in one pass.
 */
export const EMAIL_PATTERN = /[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}/g;
export const EMAIL_REPLACEMENT = '[EMAIL_REDACTED]';

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** `[a-zA-Z0-9.-]` */
const isDomain = (c: number): boolean => isLetter(c) || isDigit(c) || c === 46 || c === 45;
/** `[a-zA-Z0-9._%+-]` */
const isLocal = (c: number): boolean => isDomain(c) || c === 95 || c === 37 || c === 43;
const AT = 64;
const DOT = 46;

/**
 * Where the domain part `[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}` starting at `from` ends, or -1. Like the
 * backtracking engine, the TLD's dot is the rightmost one in the run that has at least one character
 * before it and two letters after it; the TLD then takes every letter that follows.
 */
function domainEnd(text: string, from: number): number {
  let runEnd = from;
  while (runEnd < text.length && isDomain(text.charCodeAt(runEnd))) runEnd++;
  for (let dot = runEnd - 3; dot > from; dot--) {
    if (text.charCodeAt(dot) !== DOT || !isLetter(text.charCodeAt(dot + 1)) || !isLetter(text.charCodeAt(dot + 2))) continue;
    let end = dot + 3;
    while (end < runEnd && isLetter(text.charCodeAt(end))) end++;
    return end;
  }
  return -1;
}

/**
 * [start, end) of every match of EMAIL_PATTERN, left to right, in linear time. A failed attempt from
 * the start of a local-part run fails from every later position of that run too (they end at the same
 * `@`, or at none), so the scan moves on to the next run instead of retrying inside it.
 */
export function findEmails(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let i = 0;
  while (i < text.length) {
    if (!isLocal(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let runEnd = i;
    while (runEnd < text.length && isLocal(text.charCodeAt(runEnd))) runEnd++;
    if (text.charCodeAt(runEnd) === AT) {
      const end = domainEnd(text, runEnd + 1);
      if (end > 0) {
        spans.push([i, end]);
        i = end; // the next match may start inside a run, right where this one ended (as with /g)
        continue;
      }
    }
    i = runEnd;
  }
  return spans;
}

/** `text.replace(EMAIL_PATTERN, EMAIL_REPLACEMENT)` in linear time. */
export function redactEmails(text: string): string {
  const spans = findEmails(text);
  if (spans.length === 0) return text;
  let out = '';
  let cursor = 0;
  for (const [start, end] of spans) {
    out += text.slice(cursor, start) + EMAIL_REPLACEMENT;
    cursor = end;
  }
  return out + text.slice(cursor);
}

export function emailRedactor(overrides?: SampleOverrides): InterceptorRegistration {
  return applyOverrides(
    mutator({
      name: 'email-redactor',
      description: 'Replaces e-mail addresses in tool call arguments with [EMAIL_REDACTED].',
      version: '1.0.0',
      events: ['tools/call'],
      phase: 'request',
      priorityHint: -1000,
      handler: (payload) => {
        const text = jsonText(payload);
        // An address cannot contain a quote or backslash, so replacing inside JSON text keeps it valid.
        const redacted = redactEmails(text);
        if (redacted === text) return { modified: false, payload };
        return { modified: true, payload: JSON.parse(redacted) as unknown };
      },
    }),
    overrides,
  );
}
