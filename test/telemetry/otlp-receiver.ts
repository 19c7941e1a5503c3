// A real OTLP/HTTP receiver for tests: a node http server on 127.0.0.1 that takes what the OpenTelemetry
// exporters POST to /v1/traces and /v1/metrics (JSON, as @opentelemetry/exporter-*-otlp-http send it) and
// keeps the decoded requests, typed with the OpenTelemetry packages' own OTLP request types.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IKeyValue, IAnyValue } from '@opentelemetry/otlp-transformer/build/src/common/internal-types';
import type { IExportMetricsServiceRequest, IMetric } from '@opentelemetry/otlp-transformer/build/src/metrics/internal-types';
import type { IExportTraceServiceRequest, ISpan } from '@opentelemetry/otlp-transformer/build/src/trace/internal-types';

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  statusCode: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export function attributeMap(list: IKeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) out[kv.key] = anyValue(kv.value);
  return out;
}

function anyValue(v: IAnyValue): unknown {
  if (v.stringValue != null) return v.stringValue;
  if (v.boolValue != null) return v.boolValue;
  if (v.intValue != null) return Number(v.intValue);
  if (v.doubleValue != null) return v.doubleValue;
  if (v.arrayValue) return v.arrayValue.values.map(anyValue);
  return undefined;
}

/** JSON-encoded OTLP ids are hex strings (the exporter's JSON serializer); protobuf would be bytes. */
const hex = (id: ISpan['traceId'] | undefined): string | undefined =>
  id === undefined || id === '' ? undefined : typeof id === 'string' ? id : Buffer.from(id).toString('hex');

export class OtlpReceiver {
  readonly traces: IExportTraceServiceRequest[] = [];
  readonly metrics: IExportMetricsServiceRequest[] = [];
  readonly contentTypes = new Set<string>();
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.contentTypes.add(String(req.headers['content-type']));
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        if (req.url === '/v1/traces') this.traces.push(body as IExportTraceServiceRequest);
        else if (req.url === '/v1/metrics') this.metrics.push(body as IExportMetricsServiceRequest);
        else {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  spans(): ReceivedSpan[] {
    const out: ReceivedSpan[] = [];
    for (const request of this.traces) {
      for (const rs of request.resourceSpans ?? []) {
        const resource = attributeMap(rs.resource?.attributes);
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans ?? []) {
            const parentSpanId = hex(s.parentSpanId);
            out.push({
              name: s.name,
              traceId: hex(s.traceId)!,
              spanId: hex(s.spanId)!,
              ...(parentSpanId ? { parentSpanId } : {}),
              kind: s.kind,
              statusCode: s.status.code ?? 0,
              attributes: attributeMap(s.attributes),
              resource,
            });
          }
        }
      }
    }
    return out;
  }

  metricNamed(name: string): IMetric[] {
    return this.metrics.flatMap((r) => r.resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics.filter((m) => m.name === name))));
  }

  async close(): Promise<void> {
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}
