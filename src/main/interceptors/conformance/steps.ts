// Replays one step and compares it the way the suite's README says: strip the volatile keys from
// the actual result at any depth, canonicalize, compare strings. Returns undefined on success or a
// short reason on failure.
import { canonicalJson, stripKeys } from '../../../shared/protocol/canonical';
import type { InvocationContext, InvokeParams } from '../../../shared/protocol/schemas';
import { InvokeError } from '../server-handle';
import type { ApplyStep, Fixture, FixtureStep, InvokeStep, ListStep } from './fixture';
import type { ConformanceSession } from './session';

export async function runStep(step: FixtureStep, fixture: Fixture, session: ConformanceSession): Promise<string | undefined> {
  const volatile = new Set(fixture.volatile);
  if (step.op === 'list') return listStep(step, session, volatile);
  if (step.op === 'invoke') return invokeStep(step, session, volatile);
  return applyStep(step, session);
}

function expectedCanonical(expect: { canonical?: string; result?: unknown }): string {
  return expect.canonical ?? canonicalJson(expect.result);
}

function diff(label: string, expected: string, actual: string): string {
  return `${label}: expected ${clip(expected)} got ${clip(actual)}`;
}

function clip(s: string, max = 300): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

async function listStep(step: ListStep, session: ConformanceSession, volatile: ReadonlySet<string>): Promise<string | undefined> {
  // Several servers: their lists concatenated in configured order (the merged view of A7).
  const interceptors: unknown[] = [];
  for (const client of session.clients) {
    const result = await client.list(step.event ? { event: step.event } : {});
    if (result.skipped.length > 0) return `list: the host returned malformed descriptors: ${result.skipped.map((s) => s.reason).join('; ')}`;
    interceptors.push(...result.interceptors);
  }
  const actual = canonicalJson(stripKeys({ interceptors }, volatile));
  const expected = expectedCanonical(step.expect);
  return actual === expected ? undefined : diff('list', expected, actual);
}

async function invokeStep(step: InvokeStep, session: ConformanceSession, volatile: ReadonlySet<string>): Promise<string | undefined> {
  const { server, ...rest } = step.params;
  const params = rest as InvokeParams;
  const client = server !== undefined ? session.client(server) : await clientListing(session, params.name);
  if (!client) return `invoke: no server named "${server}" in this fixture`;
  let actual: string;
  try {
    const result = await client.invoke(params, params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {});
    if ('errorCode' in step.expect) return `invoke: expected JSON-RPC error ${String(step.expect.errorCode)}, got result ${clip(canonicalJson(result))}`;
    actual = canonicalJson(stripKeys(result, volatile));
  } catch (err) {
    const code = err instanceof InvokeError ? err.code : undefined;
    if ('errorCode' in step.expect) {
      return code === step.expect.errorCode ? undefined : `invoke: expected error code ${String(step.expect.errorCode)}, got ${describeError(err)}`;
    }
    return `invoke: expected a result, got ${describeError(err)}`;
  }
  const expected = expectedCanonical(step.expect as { canonical?: string; result?: unknown });
  return actual === expected ? undefined : diff('invoke', expected, actual);
}

/** The server that lists the name; the first server otherwise (which then answers -32602). */
async function clientListing(session: ConformanceSession, name: string) {
  for (const client of session.clients) {
    const d = await client.discover();
    if (d.interceptors.some((i) => i.name === name)) return client;
  }
  return session.clients[0];
}

function describeError(err: unknown): string {
  if (err instanceof InvokeError) return `${err.kind} error${err.code !== undefined ? ` ${err.code}` : ''}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

async function applyStep(step: ApplyStep, session: ConformanceSession): Promise<string | undefined> {
  const options: { context?: InvocationContext; timeoutMs?: number } = {};
  if (step.context) options.context = step.context as InvocationContext;
  if (step.timeoutMs !== undefined) options.timeoutMs = step.timeoutMs;
  const r = await session.runtime.run(step.event, step.phase, step.payload, options);
  const decision = r.decision === 'allow' ? 'allow' : 'deny';
  const why = r.trace.blockedBy ? ` (${r.trace.blockedBy.server}/${r.trace.blockedBy.interceptor}: ${r.trace.blockedBy.reason})` : '';
  const problems: string[] = [];
  if (decision !== step.expect.decision) problems.push(`decision: expected ${step.expect.decision} got ${decision}${why}`);
  const final = canonicalJson(r.finalPayload);
  const wantFinal = step.expect.finalPayloadCanonical ?? (step.expect.finalPayload !== undefined ? canonicalJson(step.expect.finalPayload) : undefined);
  if (wantFinal !== undefined && final !== wantFinal) problems.push(diff('finalPayload', wantFinal, final));
  for (const s of step.expect.forbids ?? []) if (final.includes(s)) problems.push(`finalPayload contains forbidden ${JSON.stringify(s)}`);
  for (const s of step.expect.requires ?? []) if (!final.includes(s)) problems.push(`finalPayload lacks required ${JSON.stringify(s)}`);
  for (const [who, want] of Object.entries(step.expect.outcomes ?? {})) {
    const matches = r.trace.steps.filter((s) => s.id === who || s.name === who);
    if (matches.length !== 1) {
      problems.push(`outcome of ${who}: ${matches.length === 0 ? 'no such interceptor in the trace' : 'ambiguous; use server/name'}`);
      continue;
    }
    const got = matches[0]!.outcome;
    if (got !== want) problems.push(`outcome of ${who}: expected ${want} got ${got}${matches[0]!.error ? ` (${matches[0]!.error.message})` : ''}`);
  }
  return problems.length ? `${step.op}: ${problems.join('; ')}` : undefined;
}
