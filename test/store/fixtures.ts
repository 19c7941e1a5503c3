// Realistic execution records for the store tests: a tools/call through an email redactor
// (mutation), a PII validator and a request logger (sink), with both phase traces.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ExecutionOutcome, ExecutionRecord } from '../../src/shared/trace/execution';
import type { ChainTrace, TraceStep } from '../../src/shared/trace/types';

export function tempDir(prefix = 'ic-store-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ExecutionOptions {
  id?: string;
  gateway?: string;
  sessionId?: string;
  tool?: string;
  text?: string;
  outcome?: ExecutionOutcome;
  startedAt?: string;
  durationMs?: number;
  replayOf?: string;
  sinkRecorded?: boolean;
}

function step(partial: Partial<TraceStep> & Pick<TraceStep, 'server' | 'name' | 'type' | 'pass' | 'outcome'>): TraceStep {
  return {
    id: `${partial.server}/${partial.name}`,
    mode: 'active',
    failOpen: false,
    priority: 0,
    startMs: 0,
    durationMs: 1,
    shadow: false,
    ...partial,
  };
}

export function makeExecution(o: ExecutionOptions = {}): ExecutionRecord {
  const outcome = o.outcome ?? 'mutated';
  const tool = o.tool ?? 'send_email';
  const text = o.text ?? 'write to alice@example.com about the quarterly report';
  const received = { name: tool, arguments: { to: 'alice@example.com', body: text } };
  const forwarded = {
    name: tool,
    arguments: {
      to: '[EMAIL_REDACTED]',
      body: text
        .split(' ')
        .map((w) => (w.includes('@') ? '[EMAIL_REDACTED]' : w))
        .join(' '),
    },
  };
  const blocked = outcome === 'blocked';
  const response = { content: [{ type: 'text', text: `sent: ${text}` }], isError: false };
  const startedAt = o.startedAt ?? new Date().toISOString();
  const requestSteps: TraceStep[] = [
    step({
      server: 'samples',
      name: 'email-redactor',
      type: 'mutation',
      pass: 'mutation',
      outcome: 'mutated',
      priority: -1000,
      input: received,
      startMs: 0.1,
      durationMs: 1.5,
      result: { interceptor: 'email-redactor', phase: 'request', type: 'mutation', modified: true, payload: forwarded },
    }),
    step({
      server: 'samples',
      name: 'pii-validator',
      type: 'validation',
      pass: 'validation',
      outcome: blocked ? 'blocked' : 'allowed',
      input: forwarded,
      startMs: 1.7,
      durationMs: 0.8,
      result: blocked
        ? {
            interceptor: 'pii-validator',
            phase: 'request',
            type: 'validation',
            valid: false,
            severity: 'error',
            messages: [{ message: 'Payload may contain Social Security Number data', severity: 'error', path: '$.arguments' }],
          }
        : { interceptor: 'pii-validator', phase: 'request', type: 'validation', valid: true },
    }),
    step({
      server: 'samples',
      name: 'request-logger',
      type: 'sink',
      pass: 'sink',
      outcome: blocked ? 'skipped' : o.sinkRecorded === false ? 'not-recorded' : 'recorded',
      ...(blocked
        ? { skipped: 'validation-failed' as const }
        : {
            input: forwarded,
            result: { interceptor: 'request-logger', phase: 'request', type: 'sink', recorded: o.sinkRecorded ?? true, metrics: { payloadBytes: 120 } },
          }),
      startMs: 2.6,
      durationMs: blocked ? 0 : 0.4,
    }),
  ];
  const requestTrace: ChainTrace = {
    event: 'tools/call',
    phase: 'request',
    startedAt,
    durationMs: 3.1,
    decision: blocked ? 'block' : 'allow',
    status: blocked ? 'validation_failed' : 'success',
    inputPayload: received,
    finalPayload: forwarded,
    modified: true,
    discovery: [{ server: 'samples', ok: true, failOpen: false, durationMs: 2, interceptorCount: 3, skippedDescriptors: [] }],
    steps: requestSteps,
    validationSummary: { errors: blocked ? 1 : 0, warnings: 0, infos: 0 },
    ...(blocked
      ? {
          blockedBy: {
            server: 'samples',
            interceptor: 'pii-validator',
            phase: 'request' as const,
            event: 'tools/call',
            reason: 'Payload may contain Social Security Number data',
            messages: ['Payload may contain Social Security Number data'],
          },
        }
      : {}),
  };
  const record: ExecutionRecord = {
    id: o.id ?? randomUUID(),
    gateway: o.gateway ?? 'demo',
    sessionId: o.sessionId ?? 'session-1',
    jsonrpcId: 7,
    event: 'tools/call',
    target: tool,
    startedAt,
    durationMs: o.durationMs ?? 12.5,
    requestReceived: received,
    outcome,
    requestTrace,
  };
  if (o.replayOf) {
    record.replayOf = o.replayOf;
    record.replayMode = 'backend';
  }
  if (blocked) {
    record.blockedBy = requestTrace.blockedBy;
    record.responseReturned = {
      content: [{ type: 'text', text: 'Blocked by samples/pii-validator (request): Payload may contain Social Security Number data' }],
      isError: true,
    };
    return record;
  }
  if (outcome === 'error') {
    record.requestForwarded = forwarded;
    record.errorReturned = { code: -32603, message: 'backend failed', data: { reason: 'crash' } };
    return record;
  }
  record.requestForwarded = forwarded;
  record.responseReceived = response;
  record.responseReturned = response;
  record.responseTrace = {
    event: 'tools/call',
    phase: 'response',
    startedAt,
    durationMs: 0.9,
    decision: 'allow',
    status: 'success',
    inputPayload: response,
    finalPayload: response,
    modified: false,
    discovery: [],
    steps: [
      step({
        server: 'samples',
        name: 'request-logger',
        type: 'sink',
        pass: 'sink',
        outcome: 'recorded',
        input: response,
        startMs: 0.1,
        durationMs: 0.3,
        result: { interceptor: 'request-logger', phase: 'response', type: 'sink', recorded: true, metrics: { payloadBytes: 80 } },
      }),
    ],
    validationSummary: { errors: 0, warnings: 0, infos: 0 },
  };
  return record;
}
