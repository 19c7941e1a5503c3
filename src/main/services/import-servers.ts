// Turns one server imported from an MCP client's config into a gateway config fronting it, says whether
// its command can be started from here (an import starts only gateways whose backend command exists), and
// builds the client config to paste back: each imported server launched through its gateway.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { ImportedServer } from '../../shared/api/models';

export function importedServerConfig(server: ImportedServer, interceptorServers: unknown[]): Record<string, unknown> {
  const backend =
    server.transport === 'stdio'
      ? {
          transport: 'stdio',
          name: server.name,
          command: server.command,
          arguments: server.args ?? [],
          ...(server.env ? { env: server.env } : {}),
          ...(server.cwd ? { cwd: server.cwd } : {}),
        }
      : { transport: server.transport, name: server.name, endpoint: server.url, ...(server.headers ? { headers: server.headers } : {}) };
  const withSamples = interceptorServers.some((s) => (s as { name?: unknown }).name === 'samples');
  return {
    serverInfo: { name: server.name, version: '1.0.0' },
    backend,
    staticInterceptors: interceptorServers,
    // The samples' tool allowlist needs this server's tool names, which an import cannot know: off until
    // they are set on the Chain screen (on, without a list, it is a config error on every gateway).
    ...(withSamples ? { overrides: { 'samples/tool-allowlist': { enabled: false } } } : {}),
    // HTTP on a free loopback port with a token, so it runs inside the console; clients that launch it
    // over stdio run this same file with `--listen stdio` ("Connect a client").
    listen: { transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp', tokens: { [randomBytes(18).toString('base64url')]: 'local-user' } },
  };
}

function isRunnableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where a command resolves (PATH and, on Windows, PATHEXT, as a spawn would), or undefined. */
export function findCommand(command: string, options: { path?: string; cwd?: string } = {}): string | undefined {
  const exts = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';')] : [''];
  const hasDir = command.includes('/') || (process.platform === 'win32' && command.includes('\\'));
  const bases = hasDir
    ? [isAbsolute(command) ? command : resolve(options.cwd ?? process.cwd(), command)]
    : (options.path ?? process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, command));
  for (const base of bases) for (const ext of exts) if (isRunnableFile(base + ext)) return base + ext;
  return undefined;
}

/** Why the gateway of this server would not start from here (its stdio command is missing), or undefined. */
export function importProblem(server: ImportedServer): string | undefined {
  if (server.transport !== 'stdio') return undefined;
  if (!server.command) return 'the server has no command';
  const path = server.env?.PATH ?? process.env.PATH;
  if (findCommand(server.command, { ...(path !== undefined ? { path } : {}), ...(server.cwd ? { cwd: server.cwd } : {}) })) return undefined;
  return server.command.includes('/') || server.command.includes('\\')
    ? `its command ${server.command} does not exist or is not executable`
    : `its command "${server.command}" is not on this PATH; install it, or give its full path on the Chain screen, then start the gateway`;
}

/**
 * The client config to paste back: every imported server under its own name, now launched through its
 * gateway (the stdio entry of "Connect a client"), in the format the config was imported from.
 */
export function pasteBackConfig(format: 'mcpServers' | 'vscode', entries: { serverName: string; snippet: string }[]): string {
  const key = format === 'vscode' ? 'servers' : 'mcpServers';
  const merged: Record<string, unknown> = {};
  for (const { serverName, snippet } of entries) {
    const parsed = JSON.parse(snippet) as Record<string, Record<string, unknown>>;
    const first = Object.values(parsed[key] ?? {})[0];
    if (first !== undefined) merged[serverName] = first;
  }
  return `${JSON.stringify({ [key]: merged }, null, 2)}\n`;
}
