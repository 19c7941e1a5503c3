#!/usr/bin/env node
// The conformance backend: a real MCP server (v2 server SDK) implementing what the official conformance
// suite's server scenarios call, served in both eras.
//   node test/conformance/backend.mjs --port P   Streamable HTTP on http://127.0.0.1:P/mcp (P=0: a free port)
//   node test/conformance/backend.mjs --stdio    stdio
//   --framing json-lines   (HTTP) 2026-07-28 answers that stream (progress, logs, subscriptions/listen) come as
//                          newline-delimited JSON in a chunked `application/json` body instead of SSE, as some
//                          SDKs frame them: a shape the gateway must relay as given.
//   --stateless            (HTTP, 2025 era) no sessions: every POST is served on its own (no Mcp-Session-Id),
//                          GET and DELETE get 405, as a stateless Streamable HTTP server answers
//   --json-response        (HTTP, 2025 era) answers POSTs with one JSON body, never SSE (enableJsonResponse)
//   --sse-retry MS         (HTTP, 2025 era) the `retry` its SSE streams announce (default 200): a server that
//                          wants clients to poll slowly; a proxy must not add that wait to a client's resume.
// Over HTTP, 2026-07-28 requests go to the SDK's per-request handler (createMcpHandler, with
// subscriptions/listen), and 2025-era traffic to sessionful Streamable HTTP transports with an event store,
// so a 2025 client can resume a closed stream (SEP-1699). Prints `listening <url>` once it accepts requests.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createConformanceServer } from './backend-server.mjs';

const args = process.argv.slice(2);
if (args.includes('--stdio')) {
  serveStdio(() => createConformanceServer());
} else {
  const index = args.indexOf('--port');
  const port = index >= 0 ? Number(args[index + 1]) : NaN;
  if (!Number.isInteger(port) || port < 0) {
    process.stderr.write('usage: backend.mjs --port P | --stdio\n');
    process.exit(2);
  }
  const framing = args.includes('--framing') ? args[args.indexOf('--framing') + 1] : 'sse';
  if (framing !== 'sse' && framing !== 'json-lines') {
    process.stderr.write('--framing takes sse or json-lines\n');
    process.exit(2);
  }
  const retryMs = args.includes('--sse-retry') ? Number(args[args.indexOf('--sse-retry') + 1]) : 200;
  if (!Number.isInteger(retryMs) || retryMs < 0) {
    process.stderr.write('--sse-retry takes a whole number of milliseconds\n');
    process.exit(2);
  }
  serveHttp(port, framing, retryMs, args.includes('--stateless'), args.includes('--json-response'));
}

function eventStore() {
  const events = new Map();
  let seq = 0;
  return {
    async storeEvent(streamId, message) {
      const eventId = `${streamId}::${String(++seq).padStart(10, '0')}`;
      events.set(eventId, { streamId, message });
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = lastEventId.split('::')[0];
      for (const [eventId, e] of events) if (e.streamId === streamId && eventId > lastEventId) await send(eventId, e.message);
      return streamId;
    },
  };
}

function serveHttp(port, framing, retryMs, stateless, jsonResponse) {
  const modern = createMcpHandler(() => createConformanceServer({ notify: modern.notify }), { legacy: 'reject' });
  const modernNode = toNodeHandler(
    framing === 'json-lines' ? { fetch: async (request, options) => asJsonLines(await modern.fetch(request, options)) } : modern,
  );
  const sessions = new Map();

  async function legacyStateless(req, res, body) {
    if (req.method !== 'POST')
      return json(res, 405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: this server keeps no sessions' } });
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = createConformanceServer();
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function legacy(req, res, body) {
    if (stateless) return legacyStateless(req, res, body);
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (typeof id === 'string') return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    if (req.method !== 'POST') return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: no session' } });
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(jsonResponse ? { enableJsonResponse: true } : { eventStore: eventStore() }),
      retryInterval: retryMs,
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
    const server = createConformanceServer({ closeSSE: (ctx) => ctx.http?.closeSSE?.() });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://backend.invalid');
      if (url.pathname !== '/mcp') return json(res, 404, { error: 'not found' });
      if (!isLocal(req.headers.host) || (req.headers.origin !== undefined && !isLocal(new URL(req.headers.origin).host))) {
        return json(res, 403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: non-local Host or Origin' } });
      }
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      if (body === PARSE_ERROR) return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      const probe = await toWebRequest(req, body);
      if (req.method !== 'POST' || typeof req.headers['mcp-session-id'] === 'string' || (await isLegacyRequest(probe))) return await legacy(req, res, body);
      await modernNode(req, res, body);
    } catch (err) {
      process.stderr.write(`backend: ${err.stack ?? err}\n`);
      if (!res.headersSent) json(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } });
    }
  });
  http.listen(port, '127.0.0.1', () => process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`));
  const stop = () => http.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** An SSE answer re-framed as newline-delimited JSON in a chunked application/json body (same status). */
function asJsonLines(response) {
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) return response;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let buffer = '';
  let data = [];
  const lines = new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        else if (line === '') {
          const text = data.join('\n');
          data = [];
          // Priming events and keep-alives carry no message: a JSON-lines stream has nothing for them.
          if (text.trim()) controller.enqueue(encoder.encode(`${text}\n`));
        }
      }
    },
  });
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  return new Response(response.body.pipeThrough(lines), { status: response.status, headers });
}

const PARSE_ERROR = Symbol('parse error');
async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return PARSE_ERROR;
  }
}

function isLocal(host) {
  if (typeof host !== 'string') return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return ['localhost', '127.0.0.1', '[::1]'].includes(name.toLowerCase());
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
