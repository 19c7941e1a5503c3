// Reads the MCP servers out of an MCP client's config file so they can be put behind gateways:
// Claude Desktop / Cursor (`mcpServers`), VS Code (`servers` in .vscode/mcp.json, or `mcp.servers` in
// settings.json). VS Code files are JSONC, so comments and trailing commas are accepted.
import type { ImportedServer, ParsedClientConfig } from '../api/models';

/**
 * Said when stdio servers are imported: a client starts them with (part of) the user's environment, the
 * gateway with a minimal one (src/main/gateway/backend/environment.ts), so a variable a server took from
 * the shell (an API key, a proxy setting) must be named in its `env` or the server starts without it.
 */
export const STDIO_ENVIRONMENT_NOTE =
  'A stdio server behind a gateway starts with a minimal environment (PATH, HOME, USER, LOGNAME, SHELL, TERM) plus the variables its "env" names, not the whole environment of the gateway or of your shell. A variable it relied on from the shell (an API key, a proxy setting) must be named in its "env" (Chain screen → backend, or the gateway\'s config file).';

export class ClientConfigError extends Error {
  override name = 'ClientConfigError';
}

export function parseClientConfig(text: string): ParsedClientConfig {
  let doc: unknown;
  try {
    doc = JSON.parse(stripJsonc(text));
  } catch (err) {
    throw new ClientConfigError(`The file is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(doc)) throw new ClientConfigError('Expected a JSON object with "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code).');
  const [format, servers] = locateServers(doc);

  const out: ImportedServer[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const r = readEntry(name, entry);
    if (typeof r === 'string') skipped.push({ name, reason: r });
    else out.push(r);
  }
  return { format, servers: out, skipped };
}

function locateServers(doc: Record<string, unknown>): [ParsedClientConfig['format'], Record<string, unknown>] {
  if (isObject(doc.mcpServers)) return ['mcpServers', doc.mcpServers];
  if (isObject(doc.servers)) return ['vscode', doc.servers];
  if (isObject(doc.mcp) && isObject(doc.mcp.servers)) return ['vscode', doc.mcp.servers];
  throw new ClientConfigError('No MCP servers found: expected an "mcpServers" object (Claude Desktop, Cursor) or a "servers" object (VS Code mcp.json).');
}

function readEntry(name: string, e: unknown): ImportedServer | string {
  if (!isObject(e)) return 'not an object';
  if (e.disabled === true) return 'disabled in the client config';
  const type = typeof e.type === 'string' ? e.type : undefined;
  const env = stringRecord(e.env);
  const headers = stringRecord(e.headers);
  if (typeof e.command === 'string' && e.command && (!type || type === 'stdio')) {
    const args = Array.isArray(e.args) ? e.args : [];
    if (!args.every((a) => typeof a === 'string')) return '"args" must be an array of strings';
    return {
      name,
      transport: 'stdio',
      command: e.command,
      args: args as string[],
      ...(env ? { env } : {}),
      ...(typeof e.cwd === 'string' ? { cwd: e.cwd } : {}),
    };
  }
  const url = typeof e.url === 'string' ? e.url : typeof e.serverUrl === 'string' ? e.serverUrl : undefined;
  if (url) {
    if (!/^https?:\/\//.test(url)) return `unsupported URL ${url} (expected http:// or https://)`;
    const transport = type === 'sse' || (!type && /\/sse\/?$/.test(url)) ? 'sse' : 'http';
    return { name, transport, url, ...(headers ? { headers } : {}) };
  }
  return 'neither a "command" (stdio) nor a "url" (HTTP)';
}

function stringRecord(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Removes // and block comments and trailing commas outside strings (JSONC → JSON). */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] !== '}' && text[j] !== ']') out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
