// The embedded default (product.md §2): on first start, a demo gateway fronting server-everything over
// stdio, with the bundled sample interceptors (our own `serve-samples`), listening on HTTP on a free
// loopback port with a bearer token, started at once. Created once: deleting it is respected.
import { existsSync } from 'node:fs';
import { writePrivateFileAtomic } from '../files/private-files';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { AppEnvironment } from './environment';
import type { GatewayManager } from './gateway-manager';
import { serverEverythingEntry } from './examples';

export const DEMO_GATEWAY_ID = 'demo';

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function demoGatewayConfig(env: AppEnvironment): Promise<Record<string, unknown> | undefined> {
  const everything = serverEverythingEntry();
  if (!everything) return undefined;
  const port = await freeLoopbackPort();
  const token = randomBytes(18).toString('base64url');
  const envVars = env.cli.env ? { env: env.cli.env } : {};
  return {
    serverInfo: { name: 'Demo gateway', version: env.version },
    backend: { transport: 'stdio', name: 'everything', command: env.cli.command, arguments: [everything, 'stdio'], ...envVars },
    staticInterceptors: [{ transport: 'stdio', name: 'samples', command: env.cli.command, arguments: [...env.cli.args, 'serve-samples'], ...envVars }],
    listen: { transport: 'http', host: '127.0.0.1', port, path: '/mcp', tokens: { [token]: 'demo-user' } },
    // tool-allowlist refuses to run without an explicit list; in audit mode it shows what it would
    // block (as shadow results) without blocking the demo's other tools.
    overrides: { 'samples/tool-allowlist': { mode: 'audit', config: { allow: ['echo', 'get-*'] } } },
  };
}

/**
 * Creates and starts the demo gateway unless it was created before (a marker file remembers that, so
 * a user who deletes it does not get it back). Failures are logged and shown on its card, never fatal.
 */
export async function ensureDemoGateway(env: AppEnvironment, manager: GatewayManager): Promise<void> {
  const marker = join(env.dataDir, 'demo-gateway-created');
  if (existsSync(marker) || manager.has(DEMO_GATEWAY_ID)) return;
  const config = await demoGatewayConfig(env);
  if (!config) {
    env.logger.warn('demo gateway skipped: @modelcontextprotocol/server-everything is not installed');
    return;
  }
  await manager.create(config, { id: DEMO_GATEWAY_ID, demo: true });
  writePrivateFileAtomic(marker, `${env.clock.now().toISOString()}\n`);
  await manager.start(DEMO_GATEWAY_ID).catch((err: unknown) => env.logger.warn('demo gateway failed to start', err));
}
