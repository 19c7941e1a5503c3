// The gateway most in-process tests run: server-everything as the backend, the sample interceptor server
// over stdio (or, with `where: 'bundled'`, in the gateway's process) in front of it, an HTTP listener on a free port. tool-allowlist lets every tool through, so
// that only the interceptors a test is about decide an outcome.
import { parseGatewayConfig, type GatewayConfig, type GatewayConfigInput } from '../../src/shared/config';
import { cliPath, everythingBackend } from './helpers';

export function samplesGatewayConfig(overrides: GatewayConfigInput['overrides'] = {}, where: 'stdio' | 'bundled' = 'stdio'): GatewayConfig {
  const parsed = parseGatewayConfig({
    backend: everythingBackend,
    staticInterceptors: [
      where === 'bundled'
        ? { transport: 'bundled', name: 'samples' }
        : { transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] },
    ],
    listen: { transport: 'http', port: 0 },
    overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } }, ...overrides },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.config;
}
