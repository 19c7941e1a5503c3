// server-everything behind a headless gateway on stdio, driven by v2, v2 (2026-07-28 probing) and v1 clients.
import { CLIENT_KINDS, describeEverything } from './everything-scenario';
import { everythingBackend, gatewayArgs, writeConfig } from './helpers';

const config = writeConfig({ backend: everythingBackend });
for (const kind of CLIENT_KINDS) {
  describeEverything('stdio', kind, () => ({ stdio: { command: process.execPath, args: gatewayArgs(config) } }));
}
