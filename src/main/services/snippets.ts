// "Connect a client": the exact config entries for Claude Desktop, Cursor and VS Code.
// stdio snippets launch this installation's headless gateway on the gateway's own config file, the one the
// Chain screen saves (`--listen stdio` whatever that file's listener, and it hot-reloads on every save),
// recording into the same history database, so traffic from the client shows up in the app. A PostgreSQL
// history is passed without its password (snippet-db.ts: the gateway reads it from an owner-only file).
import type { ConnectSnippets } from '../../shared/api/models';
import type { GatewayConfig } from '../../shared/config';
import type { AppEnvironment } from './environment';
import { snippetDb } from './snippet-db';

export function buildSnippets(options: {
  id: string;
  config: GatewayConfig;
  /** The config file a client launches: GatewayManager.stdioConfigPath(id). */
  stdioConfigPath: string;
  url: string | undefined;
  env: AppEnvironment;
}): ConnectSnippets {
  const { id, config, env } = options;
  // --gateway-id: the headless gateway records under the console's id for it (not its serverInfo name), so
  // its calls show up under this gateway in Traffic filters, card counters and replay.
  const db = snippetDb(env.dbPath, env.dataDir);
  // --data-dir: the launched gateway applies this console's redaction at rest (settings.json) to what it records.
  const args = [
    ...env.cli.args,
    'gateway',
    '--config',
    options.stdioConfigPath,
    '--listen',
    'stdio',
    '--gateway-id',
    id,
    ...db.args,
    '--data-dir',
    env.dataDir,
  ];
  const launch = { command: env.cli.command, args, ...(env.cli.env ? { env: env.cli.env } : {}) };
  const stdio = {
    claudeDesktop: json({ mcpServers: { [id]: launch } }),
    cursor: json({ mcpServers: { [id]: launch } }),
    vscode: json({ servers: { [id]: { type: 'stdio', ...launch } } }),
    command: [launch.command, ...args].map(shellQuote).join(' '),
    configPath: options.stdioConfigPath,
    ...(db.note ? { dbNote: db.note } : {}),
  };
  let http: ConnectSnippets['http'] = null;
  if (config.listen.transport === 'http' && options.url) {
    const token = Object.keys(config.listen.tokens ?? {})[0];
    const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
    http = {
      url: options.url,
      // Claude Desktop's config file launches local processes only; mcp-remote bridges it to an HTTP server.
      claudeDesktop: json({
        mcpServers: {
          [id]: { command: 'npx', args: ['-y', 'mcp-remote', options.url, ...(token ? ['--header', `Authorization: Bearer ${token}`] : [])] },
        },
      }),
      cursor: json({ mcpServers: { [id]: { url: options.url, ...(headers ? { headers } : {}) } } }),
      vscode: json({ servers: { [id]: { type: 'http', url: options.url, ...(headers ? { headers } : {}) } } }),
    };
  }
  return { stdio, http };
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
