// prompt-injection-heuristic: scores known injection phrases in every string of the payload (tool
// arguments and results, prompts, sampling messages). Score ≥ threshold → severity error (blocks);
// a lower non-zero score ≥ warnThreshold → severity warn (reported, never blocks).
import type { ValidationMessage } from '../../../shared/protocol/schemas';
import { validator, type InterceptorRegistration } from '../host/types';
import { applyOverrides, type SampleOverrides } from './common';

/** Phrase patterns and weights; the score of a payload is the sum of distinct hits, capped at 1. */
export const INJECTION_PHRASES: readonly { id: string; pattern: RegExp; weight: number }[] = [
  {
    id: 'ignore-previous',
    pattern: /\b(ignore|disregard|forget)\b.{0,20}\b(all |any |the )?(previous|prior|above|earlier)\b.{0,20}\b(instructions?|prompts?|rules|directions)\b/i,
    weight: 0.6,
  },
  { id: 'override-system', pattern: /\b(override|bypass|ignore)\b.{0,20}\b(system prompt|safety|guardrails?|your instructions)\b/i, weight: 0.5 },
  {
    id: 'reveal-system-prompt',
    pattern: /\b(reveal|print|show|repeat|leak)\b.{0,30}\b(system prompt|hidden instructions|initial instructions)\b/i,
    weight: 0.5,
  },
  { id: 'new-identity', pattern: /\byou are now\b|\bfrom now on,? you (are|will)\b|\bpretend (to be|you are)\b/i, weight: 0.3 },
  { id: 'jailbreak', pattern: /\bjailbreak\b|\bdo anything now\b|\bDAN mode\b|\bdeveloper mode\b/i, weight: 0.5 },
  { id: 'exfiltrate', pattern: /\b(send|post|upload|forward|exfiltrate)\b.{0,40}\b(credentials?|secrets?|api keys?|passwords?|tokens?)\b/i, weight: 0.4 },
  { id: 'hidden-directive', pattern: /<\s*(system|instructions?)\s*>|\[\s*system\s*\]|\bIMPORTANT:\s*(ignore|do not tell)/i, weight: 0.3 },
];

interface HeuristicConfig {
  threshold: number;
  warnThreshold: number;
}

export function promptInjectionHeuristic(overrides?: SampleOverrides): InterceptorRegistration {
  return applyOverrides(
    validator<HeuristicConfig>({
      name: 'prompt-injection-heuristic',
      description:
        'Scores known prompt-injection phrases in requests and results; blocks at config.threshold (default 0.6), warns from config.warnThreshold (default 0.3).',
      version: '1.0.0',
      events: ['tools/call', 'prompts/get', 'resources/read', 'sampling/createMessage', 'elicitation/create'],
      phase: 'both',
      defaultConfig: { threshold: 0.6, warnThreshold: 0.3 },
      configSchema: {
        type: 'object',
        properties: {
          threshold: { type: 'number', minimum: 0, maximum: 1 },
          warnThreshold: { type: 'number', minimum: 0, maximum: 1 },
        },
        additionalProperties: false,
      },
      handler: (payload, { config }) => {
        const threshold = config.threshold ?? 0.6;
        const warnThreshold = Math.min(config.warnThreshold ?? 0.3, threshold);
        const hits = new Map<string, { path: string; weight: number }>();
        forEachString(payload, (text, path) => {
          for (const p of INJECTION_PHRASES) if (!hits.has(p.id) && p.pattern.test(text)) hits.set(p.id, { path: path(), weight: p.weight });
        });
        const score = Math.min(
          1,
          [...hits.values()].reduce((sum, h) => sum + h.weight, 0),
        );
        const info = { score: Math.round(score * 100) / 100, phrases: [...hits.keys()] };
        if (score === 0 || score < warnThreshold) return { valid: true, info };
        const severity = score >= threshold ? 'error' : 'warn';
        const messages: ValidationMessage[] = [...hits.entries()].map(([id, h]) => ({
          path: h.path,
          message: `Possible prompt injection (${id}); score ${info.score} (threshold ${threshold})`,
          severity,
        }));
        return { valid: false, severity, messages, info };
      },
    }),
    overrides,
  );
}

/**
 * Calls `visit` with every string value, depth-first, bounded so huge payloads stay cheap. The string's JSON
 * path is built only when `visit` asks for it (during the call): most strings match nothing, and building
 * every path (and a generator per level) was most of what this sample allocated.
 */
function forEachString(value: unknown, visit: (text: string, path: () => string) => void): void {
  const keys: (string | number)[] = [];
  const path = (): string =>
    keys.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `${p}.${k}` : `${p}[${JSON.stringify(k)}]`), '$');
  const walk = (v: unknown, depth: number): void => {
    if (depth > 32) return;
    if (typeof v === 'string') visit(v.length > 100_000 ? v.slice(0, 100_000) : v, path);
    else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        keys.push(i);
        walk(v[i], depth + 1);
        keys.pop();
      }
    } else if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        keys.push(k);
        walk((v as Record<string, unknown>)[k], depth + 1);
        keys.pop();
      }
    }
  };
  walk(value, 0);
}
