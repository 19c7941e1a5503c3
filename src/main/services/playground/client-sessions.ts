// The Playground's built-in MCP client. Its connections live here in the core (never in the renderer,
// which cannot spawn a process or hold a bearer token safely): a gateway's HTTP listener with that
// gateway's own token, any server by command (stdio) or URL (Streamable HTTP). Calls through a gateway
// go through its chain and are recorded like any client's.
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { ApiError } from '../../../shared/api/envelope';
import type { ClientCatalog, ClientSession, ClientTarget } from '../../../shared/api/models-playground';
import { ShellSyntaxError, splitCommandLine } from '../../../shared/shell/shell-words';
import type { GatewayManager } from '../gateway-manager';

/** Open sessions are bounded: the oldest is closed when a new one would exceed this. */
const MAX_SESSIONS = 8;
const CONNECT_TIMEOUT_MS = 20_000;
const CALL_TIMEOUT_MS = 60_000;
const MAX_PAGES = 20;

interface Open {
  info: ClientSession;
  client: Client;
}

export class ClientSessions {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly manager: () => GatewayManager,
    private readonly version: string,
  ) {}

  async connect(target: ClientTarget): Promise<ClientSession> {
    const { transport, label } = this.transportFor(target);
    const client = new Client({ name: 'interceptor-console-playground', version: this.version }, { capabilities: {} });
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (err) {
      await client.close().catch(() => undefined);
      throw new ApiError('failed', `Could not connect to ${label}: ${(err as Error).message}`);
    }
    const sessionId = randomUUID();
    const serverInfo = client.getServerVersion();
    const info: ClientSession = {
      sessionId,
      label,
      target,
      ...(serverInfo ? { serverInfo: { ...serverInfo } } : {}),
      ...(client.getNegotiatedProtocolVersion() ? { protocolVersion: client.getNegotiatedProtocolVersion() } : {}),
      ...(client.getInstructions() ? { instructions: client.getInstructions() } : {}),
      capabilities: { ...(client.getServerCapabilities() ?? {}) },
      connectedAt: new Date().toISOString(),
    };
    client.onclose = () => {
      this.open.delete(sessionId);
    };
    this.open.set(sessionId, { info, client });
    if (this.open.size > MAX_SESSIONS) {
      const oldest = this.open.keys().next().value!;
      await this.disconnect(oldest);
    }
    return info;
  }

  sessions(): ClientSession[] {
    return [...this.open.values()].map((o) => o.info);
  }

  async disconnect(sessionId: string): Promise<void> {
    const open = this.open.get(sessionId);
    this.open.delete(sessionId);
    await open?.client.close().catch(() => undefined);
  }

  /** Every list the server offers, drained; a list that fails is reported in `errors`, never hidden. */
  async list(sessionId: string): Promise<ClientCatalog> {
    const { client, info } = this.session(sessionId);
    const caps = info.capabilities as { tools?: unknown; prompts?: unknown; resources?: unknown };
    const errors: Record<string, string> = {};
    const drain = async <T>(key: string, offered: boolean, page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>) => {
      if (!offered) {
        errors[key] = `the server does not offer ${key}`;
        return [];
      }
      const out: T[] = [];
      let cursor: string | undefined;
      try {
        for (let i = 0; i < MAX_PAGES; i++) {
          const r = await page(cursor);
          out.push(...r.items);
          cursor = r.nextCursor;
          if (!cursor) break;
        }
      } catch (err) {
        errors[key] = (err as Error).message;
      }
      return out;
    };
    const opts = { timeout: CALL_TIMEOUT_MS };
    const [tools, prompts, resources, resourceTemplates] = await Promise.all([
      drain('tools', Boolean(caps.tools), async (cursor) => {
        const r = await client.listTools(cursor ? { cursor } : undefined, opts);
        return { items: r.tools, nextCursor: r.nextCursor };
      }),
      drain('prompts', Boolean(caps.prompts), async (cursor) => {
        const r = await client.listPrompts(cursor ? { cursor } : undefined, opts);
        return { items: r.prompts, nextCursor: r.nextCursor };
      }),
      drain('resources', Boolean(caps.resources), async (cursor) => {
        const r = await client.listResources(cursor ? { cursor } : undefined, opts);
        return { items: r.resources, nextCursor: r.nextCursor };
      }),
      drain('resourceTemplates', Boolean(caps.resources), async (cursor) => {
        const r = await client.listResourceTemplates(cursor ? { cursor } : undefined, opts);
        return { items: r.resourceTemplates, nextCursor: r.nextCursor };
      }),
    ]);
    const plain = (items: unknown[]) => items as Record<string, unknown>[];
    return { tools: plain(tools), prompts: plain(prompts), resources: plain(resources), resourceTemplates: plain(resourceTemplates), errors };
  }

  callTool(sessionId: string, name: string, args: Record<string, unknown>) {
    return this.timed(sessionId, `tools/call "${name}"`, (c) => c.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS }));
  }

  getPrompt(sessionId: string, name: string, args: Record<string, string>) {
    return this.timed(sessionId, `prompts/get "${name}"`, (c) => c.getPrompt({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS }));
  }

  readResource(sessionId: string, uri: string) {
    return this.timed(sessionId, `resources/read "${uri}"`, (c) => c.readResource({ uri }, { timeout: CALL_TIMEOUT_MS }));
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.disconnect(id)));
  }

  private async timed(sessionId: string, what: string, op: (c: Client) => Promise<object>) {
    const { client } = this.session(sessionId);
    const t0 = performance.now();
    try {
      const result = (await op(client)) as Record<string, unknown>;
      return { result: { ...result }, durationMs: performance.now() - t0 };
    } catch (err) {
      throw new ApiError('failed', `${what} failed: ${(err as Error).message}`);
    }
  }

  private session(sessionId: string): Open {
    const open = this.open.get(sessionId);
    if (!open) throw new ApiError('not_found', `No open client session "${sessionId}" (it was closed or the server went away); connect again.`);
    return open;
  }

  private transportFor(target: ClientTarget): { transport: Transport; label: string } {
    if (target.kind === 'gateway') {
      const manager = this.manager();
      const gw = manager.get(target.id);
      if (gw.status !== 'running') throw new ApiError('conflict', `Gateway "${target.id}" is ${gw.status}; start it first.`);
      if (gw.listen.transport !== 'http' || !gw.listen.url) {
        throw new ApiError('conflict', `Gateway "${target.id}" has no HTTP listener to connect to (it listens on stdio).`);
      }
      const listen = manager.config(target.id).listen;
      const token = listen.transport === 'http' ? Object.keys(listen.tokens ?? {})[0] : undefined;
      const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      return {
        transport: new StreamableHTTPClientTransport(new URL(gw.listen.url), { requestInit: { headers } }),
        label: `gateway "${gw.name}" (${gw.listen.url})`,
      };
    }
    if (target.kind === 'http') {
      return {
        transport: new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers ?? {} } }),
        label: target.url,
      };
    }
    let words: string[];
    try {
      words = splitCommandLine(target.command);
    } catch (err) {
      if (err instanceof ShellSyntaxError) throw new ApiError('invalid_input', `The command line is not valid: ${err.message}`);
      throw err;
    }
    const [command, ...args] = words;
    if (!command) throw new ApiError('invalid_input', 'Enter the command that starts the server.');
    return {
      transport: new StdioClientTransport({ command, args, env: { ...getDefaultEnvironment(), ...(target.env ?? {}) }, cwd: target.cwd, stderr: 'pipe' }),
      label: target.command,
    };
  }
}
