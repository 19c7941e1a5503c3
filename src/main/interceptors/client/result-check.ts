// The invoker's checks on an invoke result (S4 malformed results, routed as invocation failures):
// it must parse as one of the result types and echo the call's interceptor, type and phase, and
// a mutation that says `modified:false` must give back the unchanged input or no payload at all.
import { canonicalJson } from '../../../shared/protocol/canonical';
import { passesResultSchema } from '../../../shared/protocol/result-fast-check';
import {
  InterceptorDescriptorSchema,
  InterceptorResultSchema,
  type InterceptorDescriptor,
  type InterceptorResult,
  type InterceptorType,
  type InvokeParams,
} from '../../../shared/protocol/schemas';
import { InvokeError } from '../server-handle';

export function checkInvokeResult(raw: unknown, params: InvokeParams, expectedType: InterceptorType | undefined, server: string): InterceptorResult {
  const where = `interceptor '${params.name}' on server '${server}'`;
  // The common shapes skip zod's copying pass (result-fast-check.ts); anything else goes through it.
  let result: InterceptorResult;
  if (passesResultSchema(raw)) result = raw;
  else {
    const parsed = InterceptorResultSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.length ? issue.path.join('.') : 'result';
      throw new InvokeError('malformed', `${where} returned a malformed result: ${path}: ${issue?.message}`, undefined, { result: raw });
    }
    result = parsed.data;
  }
  const mismatches: string[] = [];
  if (result.interceptor !== params.name) mismatches.push(`interceptor is '${result.interceptor}', expected '${params.name}'`);
  if (result.phase !== params.phase) mismatches.push(`phase is '${result.phase}', expected '${params.phase}'`);
  if (expectedType && result.type !== expectedType) mismatches.push(`type is '${result.type}', expected '${expectedType}'`);
  if (mismatches.length) {
    throw new InvokeError('malformed', `${where} returned a result that does not echo the call: ${mismatches.join('; ')}`, undefined, {
      result: raw,
    });
  }
  // `{modified:false}` without a payload means "unchanged" (the TS reference SDK sends exactly that).
  if (result.type === 'mutation' && !result.modified && result.payload !== undefined && canonicalJson(result.payload) !== canonicalJson(params.payload)) {
    throw new InvokeError('malformed', `${where} returned modified:false with a payload different from its input`, undefined, {
      result: raw,
    });
  }
  return result;
}

export interface DescriptorCheck {
  accepted: InterceptorDescriptor[];
  skipped: { name?: string; reason: string }[];
}

/** Validates descriptors one by one: a bad one is skipped with a reason, never a crash. */
export function checkDescriptors(raw: unknown[], seen = new Set<string>()): DescriptorCheck {
  const accepted: InterceptorDescriptor[] = [];
  const skipped: { name?: string; reason: string }[] = [];
  raw.forEach((item, index) => {
    const name = item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string' ? (item as { name: string }).name : undefined;
    const parsed = InterceptorDescriptorSchema.safeParse(item);
    if (!parsed.success) {
      const reason = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.length ? i.path.join('.') : 'descriptor'}: ${describeIssue(i, item)}`)
        .join('; ');
      skipped.push({ ...(name ? { name } : {}), reason: `descriptor #${index} is malformed: ${reason}` });
      return;
    }
    if (seen.has(parsed.data.name)) {
      skipped.push({ name: parsed.data.name, reason: `duplicate interceptor name '${parsed.data.name}' on the same server` });
      return;
    }
    seen.add(parsed.data.name);
    accepted.push(parsed.data);
  });
  return { accepted, skipped };
}

function describeIssue(issue: { path: PropertyKey[]; message: string }, item: unknown): string {
  // Unknown `type`/`mode` values get a plain sentence (S4: receivers skip them).
  const key = issue.path[0];
  if ((key === 'type' || key === 'mode') && issue.path.length === 1 && item && typeof item === 'object') {
    const value = (item as Record<string, unknown>)[key];
    if (value !== undefined) return `unknown ${key} ${JSON.stringify(value)}`;
  }
  return issue.message;
}
