// The 10 behaviour fixtures of the conformance suite replayed against the security samples,
// served by a real host and reached through the invoker over an in-memory MCP transport. The
// chain here is the minimal execution model (request: mutations then validations; response:
// validations then mutations; block iff valid:false with error or no severity): it checks the
// samples' semantics; the full engine and runner are tested by their own suites.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { InterceptorServerClient } from '../../src/main/interceptors/client';
import { InterceptorHost } from '../../src/main/interceptors/host';
import { crossBoundaryGuard, secretlessRedactor } from '../../src/main/interceptors/samples';
import type { InterceptorDescriptor } from '../../src/shared/protocol';
import { canonicalJson, hookMatches } from '../../src/shared/protocol';
import { inMemoryClient } from './helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const candidates = [join(root, 'test/fixtures/conformance/fixtures/behavior'), join(root, '../shared/conformance/fixtures/behavior')];
const dir = candidates.find((d) => existsSync(d)) ?? candidates[0]!;

interface Fixture {
  id: string;
  interceptors: { name: string; type: string; behavior: string; events: string[]; phases: 'request' | 'response' | 'both' }[];
  steps: {
    op: string;
    event: string;
    phase: 'request' | 'response';
    payload: unknown;
    context: { sessionId?: string } | null;
    expect: { decision: 'allow' | 'deny'; forbids?: string[]; requires?: string[]; finalPayloadCanonical?: string };
  }[];
}

const factories: Record<string, typeof crossBoundaryGuard> = {
  'cross-boundary-guard': crossBoundaryGuard,
  'secretless-redactor': secretlessRedactor,
};

async function apply(client: InterceptorServerClient, descriptors: InterceptorDescriptor[], step: Fixture['steps'][number]) {
  let payload = step.payload;
  const active = descriptors.filter((d) => d.hooks.some((h) => hookMatches(h, step.event, step.phase)));
  const ctx = step.context ?? undefined;
  const base = { event: step.event, phase: step.phase, context: ctx };
  const mutate = async () => {
    for (const d of active.filter((x) => x.type === 'mutation')) {
      const r = await client.invoke({ ...base, name: d.name, payload });
      if (r.type === 'mutation' && r.modified) payload = r.payload;
    }
  };
  const validate = async () => {
    const results = await Promise.all(active.filter((x) => x.type === 'validation').map((d) => client.invoke({ ...base, name: d.name, payload })));
    return results.some((r) => r.type === 'validation' && !r.valid && (r.severity === undefined || r.severity === 'error'));
  };
  let blocked: boolean;
  if (step.phase === 'request') {
    await mutate();
    blocked = await validate();
  } else {
    blocked = await validate();
    if (!blocked) await mutate();
  }
  return { decision: blocked ? 'deny' : 'allow', payload };
}

const files = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

describe('behaviour fixtures against the security samples', () => {
  it('finds the 10 behaviour fixtures', () => {
    expect(files).toHaveLength(10);
  });

  for (const file of files) {
    const fixture = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Fixture;
    it(fixture.id, async () => {
      const host = new InterceptorHost();
      for (const i of fixture.interceptors) {
        const factory = factories[i.behavior];
        expect(factory, i.behavior).toBeDefined();
        host.register(factory!({ name: i.name, events: i.events, phase: i.phases }));
      }
      const client = inMemoryClient(host);
      try {
        const { interceptors } = await client.discover();
        for (const [n, step] of fixture.steps.entries()) {
          const out = await apply(client, interceptors, step);
          expect(out.decision, `step ${n}`).toBe(step.expect.decision);
          const finalText = canonicalJson(out.payload);
          for (const s of step.expect.forbids ?? []) expect(finalText, `step ${n} forbids`).not.toContain(s);
          for (const s of step.expect.requires ?? []) expect(finalText, `step ${n} requires`).toContain(s);
          if (step.expect.finalPayloadCanonical) expect(finalText).toBe(step.expect.finalPayloadCanonical);
        }
      } finally {
        await client.close();
      }
    });
  }
});
