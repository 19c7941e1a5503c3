// How the built-in client reaches what it connects to: a gateway's HTTP listener with that gateway's own
// token, a URL (Streamable HTTP, with the headers given), or a command line (stdio, its own environment).
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { ApiError } from '../../../shared/api/envelope';
import type { ClientTarget } from '../../../shared/api/models-playground';
import { ShellSyntaxError, splitCommandLine } from '../../../shared/shell/shell-words';
import type { GatewayManager } from '../gateway-manager';

export function transportFor(target: ClientTarget, manager: () => GatewayManager): { transport: Transport; label: string } {
  if (target.kind === 'gateway') {
    const gateways = manager();
    const gw = gateways.get(target.id);
    if (gw.status !== 'running') throw new ApiError('conflict', `Gateway "${target.id}" is ${gw.status}; start it first.`);
    if (gw.listen.transport !== 'http' || !gw.listen.url) {
      throw new ApiError('conflict', `Gateway "${target.id}" has no HTTP listener to connect to (it listens on stdio).`);
    }
    const listen = gateways.config(target.id).listen;
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
