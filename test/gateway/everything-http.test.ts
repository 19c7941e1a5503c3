// server-everything behind an in-process gateway with an HTTP listener: one backend per client session,
// driven by v2, v2 (2026-07-28 probing) and v1 clients over Streamable HTTP.
import { afterAll, beforeAll } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config';
import { Gateway } from '../../src/main/gateway';
import { CLIENT_KINDS, describeEverything } from './everything-scenario';
import { everythingBackend } from './helpers';

let gateway: Gateway;
beforeAll(async () => {
  const parsed = parseGatewayConfig({ backend: everythingBackend, listen: { transport: 'http', port: 0, tokens: { 'secret-token': 'alice' } } });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  gateway = new Gateway(parsed.config);
  await gateway.start();
});
afterAll(async () => {
  await gateway?.stop();
});

for (const kind of CLIENT_KINDS) {
  describeEverything('http', kind, () => ({ http: { url: gateway.url!, headers: { Authorization: 'Bearer secret-token' } } }));
}
