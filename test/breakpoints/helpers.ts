// Shared by the breakpoint tests: a real gateway (HTTP listener) in front of server-everything with the
// sample interceptor server narrowed to two interceptors (email-redactor, pii-validator) so that stepping
// sees a known chain, real v2 clients, and waiting on the registry's own events (never on a sleep).
import { once } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parseGatewayConfig, type BreakpointInput, type GatewayConfigInput } from '../../src/shared/config';
import type { PausedCall } from '../../src/shared/trace/pauses';
import type { Gateway } from '../../src/main/gateway';
import { cliPath, everythingBackend } from '../gateway/helpers';

const DISABLED = ['request-logger', 'secretless-redactor', 'cross-boundary-guard', 'tool-allowlist', 'prompt-injection-heuristic'];

export function breakpointsConfig(breakpoints: BreakpointInput[], extra: Partial<GatewayConfigInput> = {}) {
  const parsed = parseGatewayConfig({
    backend: everythingBackend,
    staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
    listen: { transport: 'http', port: 0, tokens: { 'token-alice': 'alice', 'token-bob': 'bob' } },
    overrides: Object.fromEntries(DISABLED.map((n) => [`samples/${n}`, { enabled: false }])),
    breakpoints,
    ...extra,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.config;
}

export async function connect(gateway: Gateway, token = 'token-alice'): Promise<Client> {
  const client = new Client({ name: 'breakpoints-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url!), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** The next pause of this gateway (subscribe before causing it). */
export function nextPause(gateway: Gateway): Promise<PausedCall> {
  return once(gateway.breakpoints.pauses, 'paused').then(([view]) => view as PausedCall);
}

export const text = (r: unknown) => ((r as { content: { text?: string }[] }).content[0]?.text ?? '') as string;
