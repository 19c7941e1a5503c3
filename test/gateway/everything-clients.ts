// Clients of three kinds behind one small interface, so that the same scenario drives the gateway with
// the v2 SDK (2025-11-25), the v2 SDK probing for 2026-07-28, and the v1 SDK speaking 2025-06-18.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport as TransportV1 } from '@modelcontextprotocol/sdk/shared/transport.js';

export type ClientKind = 'v2' | 'v2-auto' | 'v1-2025-06-18';

export interface Seen {
  logs: unknown[];
  updated: string[];
  toolsChanged: number;
  samplingRequests: unknown[];
  elicitations: unknown[];
  rootsRequests: number;
}

type Progress = { progress: number; total?: number };
type CallOptions = { onprogress?: (p: Progress) => void; signal?: AbortSignal; timeout?: number };

export interface AnyClient {
  kind: ClientKind;
  seen: Seen;
  protocolVersion(): string | undefined;
  serverInfo(): { name: string; version: string } | undefined;
  instructions(): string | undefined;
  capabilities(): Record<string, unknown> | undefined;
  listTools(cursor?: string): Promise<{ tools: { name: string; inputSchema?: unknown }[]; nextCursor?: string }>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<{ content: { type: string; text?: string }[]; isError?: boolean; [k: string]: unknown }>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  getPrompt(name: string, args?: Record<string, string>): Promise<{ messages: unknown[] }>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  readResource(uri: string): Promise<{ contents: { uri: string }[] }>;
  subscribe(uri: string): Promise<unknown>;
  unsubscribe(uri: string): Promise<unknown>;
  complete(promptName: string, argName: string, value: string): Promise<{ completion: { values: string[] } }>;
  setLoggingLevel(level: 'debug' | 'info'): Promise<unknown>;
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

const ROOTS = [{ uri: 'file:///tmp/gateway-root-a', name: 'Root A' }];
const CAPS = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };

function newSeen(): Seen {
  return { logs: [], updated: [], toolsChanged: 0, samplingRequests: [], elicitations: [], rootsRequests: 0 };
}

// What the test client answers to the server's own requests, whichever SDK it is built with.
const SAMPLING_ANSWER = { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'sampled by the test client' } } as const;
const ELICITATION_ANSWER = { action: 'accept', content: { name: 'Ada Lovelace' } } as const;

/** The methods the v1 and v2 SDK clients share: same names, same request shapes (callTool differs). */
interface SdkClient {
  getServerVersion(): unknown;
  getInstructions(): string | undefined;
  getServerCapabilities(): unknown;
  listTools(params?: { cursor: string }): Promise<unknown>;
  listPrompts(): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
  listResources(): Promise<unknown>;
  listResourceTemplates(): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  subscribeResource(params: { uri: string }): Promise<unknown>;
  unsubscribeResource(params: { uri: string }): Promise<unknown>;
  complete(params: { ref: { type: 'ref/prompt'; name: string }; argument: { name: string; value: string } }): Promise<unknown>;
  setLoggingLevel(level: 'debug' | 'info'): Promise<unknown>;
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

function sharedMethods(client: SdkClient): Omit<AnyClient, 'kind' | 'seen' | 'protocolVersion' | 'callTool'> {
  return {
    serverInfo: () => client.getServerVersion() as { name: string; version: string } | undefined,
    instructions: () => client.getInstructions(),
    capabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    listTools: (cursor) => client.listTools(cursor ? { cursor } : undefined) as never,
    listPrompts: () => client.listPrompts() as never,
    getPrompt: (name, args) => client.getPrompt({ name, ...(args ? { arguments: args } : {}) }) as never,
    listResources: () => client.listResources() as never,
    listResourceTemplates: () => client.listResourceTemplates() as never,
    readResource: (uri) => client.readResource({ uri }) as never,
    subscribe: (uri) => client.subscribeResource({ uri }),
    unsubscribe: (uri) => client.unsubscribeResource({ uri }),
    complete: (prompt, argName, value) => client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argName, value } }) as never,
    setLoggingLevel: (level) => client.setLoggingLevel(level),
    ping: () => client.ping(),
    close: () => client.close(),
  };
}

export type Endpoint = { stdio: { command: string; args: string[] } } | { http: { url: string; headers?: Record<string, string> } };

export async function connectClient(kind: ClientKind, endpoint: Endpoint): Promise<AnyClient> {
  return kind === 'v1-2025-06-18' ? connectV1(endpoint) : connectV2(kind, endpoint);
}

async function connectV2(kind: ClientKind, endpoint: Endpoint): Promise<AnyClient> {
  const seen = newSeen();
  const client = new ClientV2(
    { name: `gateway-test-${kind}`, version: '1.0.0' },
    { capabilities: CAPS, ...(kind === 'v2-auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
  );
  client.setRequestHandler('sampling/createMessage', async (req) => {
    seen.samplingRequests.push(req.params);
    return SAMPLING_ANSWER;
  });
  client.setRequestHandler('elicitation/create', async (req) => {
    seen.elicitations.push(req.params);
    return ELICITATION_ANSWER;
  });
  client.setRequestHandler('roots/list', async () => {
    seen.rootsRequests++;
    return { roots: ROOTS };
  });
  client.setNotificationHandler('notifications/message', (n) => void seen.logs.push(n.params));
  client.setNotificationHandler('notifications/resources/updated', (n) => void seen.updated.push(n.params.uri));
  client.setNotificationHandler('notifications/tools/list_changed', () => void seen.toolsChanged++);
  const transport =
    'stdio' in endpoint
      ? new StdioV2({ command: endpoint.stdio.command, args: endpoint.stdio.args, stderr: 'ignore' })
      : new HttpV2(new URL(endpoint.http.url), endpoint.http.headers ? { requestInit: { headers: endpoint.http.headers } } : {});
  await client.connect(transport);
  return {
    kind,
    seen,
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, options) as never,
    ...sharedMethods(client),
  };
}

/** Rewrites the outgoing initialize so that the v1 client asks for 2025-06-18 (it sends its latest otherwise). */
function pinVersion(transport: TransportV1, version: string): TransportV1 {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'initialize' && message.params) {
      message = { ...message, params: { ...message.params, protocolVersion: version } };
    }
    return send(message, options);
  };
  return transport;
}

async function connectV1(endpoint: Endpoint): Promise<AnyClient> {
  const seen = newSeen();
  const client = new ClientV1({ name: 'gateway-test-v1', version: '1.0.0' }, { capabilities: CAPS });
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    seen.samplingRequests.push(req.params);
    return SAMPLING_ANSWER;
  });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    seen.elicitations.push(req.params);
    return ELICITATION_ANSWER;
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    seen.rootsRequests++;
    return { roots: ROOTS };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.logs.push(n.params));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.updated.push(n.params.uri));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void seen.toolsChanged++);
  const transport =
    'stdio' in endpoint
      ? new StdioV1({ command: endpoint.stdio.command, args: endpoint.stdio.args, stderr: 'ignore' })
      : new HttpV1(new URL(endpoint.http.url), endpoint.http.headers ? { requestInit: { headers: endpoint.http.headers } } : {});
  await client.connect(pinVersion(transport, '2025-06-18'));
  const negotiated = (transport as { protocolVersion?: string }).protocolVersion;
  return {
    kind: 'v1-2025-06-18',
    seen,
    // The v1 client keeps the negotiated version on HTTP transports only; on stdio it is the one we pinned and it accepted.
    protocolVersion: () => negotiated ?? '2025-06-18',
    // v1 takes a result schema before the options.
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, undefined, options) as never,
    ...sharedMethods(client),
  };
}
