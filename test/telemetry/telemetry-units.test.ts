// The pieces of the OpenTelemetry export that need no process: W3C traceparent handling (what is accepted,
// what the backend gets) and the bounded queue in front of the exporter.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { OtelTelemetry, PENDING_MAX } from '../../src/main/telemetry/otel-telemetry';
import { resolveTelemetryOptions } from '../../src/main/telemetry/options';
import { parseTraceParent, traceParentOf } from '../../src/main/telemetry/traceparent';
import { freePort, waitFor } from '../gateway/helpers';

/** The nice value of each thread of this process, by tid (Linux /proc). */
function threadNiceness(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended while we listed
    }
  }
  return out;
}

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const S = '00f067aa0ba902b7';

describe('traceparent', () => {
  it('accepts valid W3C values and ignores malformed, all-zero or version-ff ones', () => {
    expect(parseTraceParent(`00-${T}-${S}-01`)).toEqual({ traceId: T, spanId: S, flags: 1 });
    expect(parseTraceParent(`00-${T}-${S}-00`)?.flags).toBe(0);
    for (const bad of [
      `00-${'0'.repeat(32)}-${S}-01`,
      `00-${T}-${'0'.repeat(16)}-01`,
      `ff-${T}-${S}-01`,
      `00-${T}-${S}-01-extra`,
      `00-${T.slice(1)}-${S}-01`,
      42,
      undefined,
    ]) {
      expect(parseTraceParent(bad)).toBeUndefined();
    }
    expect(traceParentOf({ _meta: { traceparent: `00-${T}-${S}-01` } })?.spanId).toBe(S);
    expect(traceParentOf({ name: 'x' })).toBeUndefined();
  });

  it('the backend gets the client trace with a new span id, other _meta kept, the caller’s params untouched', async () => {
    const options = resolveTelemetryOptions(`http://127.0.0.1:${await freePort()}`, {}, '0.0.0')!;
    const telemetry = new OtelTelemetry(options, () => undefined);
    try {
      const received = { name: 'echo', _meta: { traceparent: `00-${T}-${S}-01`, progressToken: 7 } };
      const forwarded = { name: 'echo', _meta: { progressToken: 7 } };
      const out = telemetry.propagate('0b0e8b5e-3c3a-4d4e-9f00-123456789abc', received, forwarded);
      const sent = parseTraceParent((out._meta as Record<string, unknown>).traceparent)!;
      expect(sent.traceId).toBe(T);
      expect(sent.spanId).not.toBe(S);
      expect(out._meta).toMatchObject({ progressToken: 7 });
      expect(forwarded._meta).not.toHaveProperty('traceparent');
      // No client trace: the trace id is the execution id.
      const own = telemetry.propagate('0b0e8b5e-3c3a-4d4e-9f00-123456789abc', { name: 'echo' }, undefined);
      expect(parseTraceParent((own._meta as Record<string, unknown>).traceparent)?.traceId).toBe('0b0e8b5e3c3a4d4e9f00123456789abc');
    } finally {
      await telemetry.shutdown();
    }
  });
});

describe('export options and queue', () => {
  it('is off without an endpoint, and says what to fix for a bad one', () => {
    expect(resolveTelemetryOptions(undefined, {}, '1')).toBeNull();
    expect(resolveTelemetryOptions(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }, '1')?.endpoint).toBe('http://c:4318');
    expect(resolveTelemetryOptions('http://flag:4318', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' }, '1')?.endpoint).toBe('http://flag:4318');
    expect(() => resolveTelemetryOptions('localhost:4318', {}, '1')).toThrow(/--otlp-endpoint .* e\.g\. http:\/\/127\.0\.0\.1:4318/);
    expect(() => resolveTelemetryOptions('http://c', { OTEL_BSP_SCHEDULE_DELAY: 'soon' }, '1')).toThrow(/OTEL_BSP_SCHEDULE_DELAY/);
    // One OTLP request carries up to 1024 spans by default, never more than the queue holds.
    expect(resolveTelemetryOptions('http://c', {}, '1')).toMatchObject({ maxQueue: 2048, maxExportBatch: 1024 });
    expect(resolveTelemetryOptions('http://c', { OTEL_BSP_MAX_QUEUE_SIZE: '256' }, '1')?.maxExportBatch).toBe(256);
  });

  it('keeps a bounded queue: a burst past it is dropped and counted, never buffered without limit', async () => {
    const options = resolveTelemetryOptions(`http://127.0.0.1:${await freePort()}`, { OTEL_EXPORTER_OTLP_TIMEOUT: '500' }, '0.0.0')!;
    const lines: string[] = [];
    const telemetry = new OtelTelemetry(options, (l) => lines.push(l));
    const record: ExecutionRecord = {
      id: '0b0e8b5e-3c3a-4d4e-9f00-123456789abc',
      gateway: 'g',
      event: 'tools/call',
      startedAt: new Date().toISOString(),
      durationMs: 1,
      outcome: 'allow',
    };
    const burst = PENDING_MAX + 5000;
    for (let i = 0; i < burst; i++) telemetry.recordExecution(record); // one synchronous burst: no drain in between
    expect(telemetry.stats()).toMatchObject({ pending: PENDING_MAX, dropped: burst - PENDING_MAX });
    await telemetry.shutdown();
    expect(lines.join('\n')).toContain(`${burst - PENDING_MAX} execution(s) were not exported (queue full)`);
  });

  it.runIf(process.platform === 'linux')(
    'runs the export thread at a lower priority than the thread that started it, so traffic goes first',
    { timeout: 60_000 },
    async () => {
      const own = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]);
      const expected = Math.min(19, own + 10);
      expect(expected).toBeGreaterThan(own); // else this runner is already as nice as it gets and nothing is shown
      const before = threadNiceness();
      const options = resolveTelemetryOptions(`http://127.0.0.1:${await freePort()}`, { OTEL_EXPORTER_OTLP_TIMEOUT: '500' }, '0.0.0')!;
      const telemetry = new OtelTelemetry(options, () => undefined);
      try {
        expect(telemetry.stats().thread).toBe(true);
        const niced = () => [...threadNiceness()].filter(([tid, nice]) => !before.has(tid) && nice === expected);
        await waitFor(() => niced().length > 0, 20_000, `a new thread at nice ${expected}`);
        // Only the export thread: the process (its main thread) keeps its priority.
        expect(threadNiceness().get(process.pid)).toBe(before.get(process.pid));
      } finally {
        await telemetry.shutdown();
      }
    },
  );
});
