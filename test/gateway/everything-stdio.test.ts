// server-everything behind a headless gateway on stdio, driven by v2, v2 (2026-07-28 probing) and v1 clients.
import { describe, expect, it } from 'vitest';
import { CLIENT_KINDS, describeEverything } from './everything-scenario';
import { LineClient, everythingBackend, gatewayArgs, writeConfig } from './helpers';

const config = writeConfig({ backend: everythingBackend });
for (const kind of CLIENT_KINDS) {
  describeEverything('stdio', kind, () => ({ stdio: { command: process.execPath, args: gatewayArgs(config) } }));
}

describe('stdio wire order', () => {
  it('writes every progress notification, in order, before the response of its request', async () => {
    const gw = new LineClient(gatewayArgs(config));
    try {
      await gw.initialize('2025-06-18');
      await gw.request(5, 'tools/call', { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 }, _meta: { progressToken: 'p1' } });
      const relevant = gw.messages.filter((m) => m.id === 5 || m.method === 'notifications/progress');
      expect(relevant.map((m) => (m.id === 5 ? 'response' : (m.params as { progress: number }).progress))).toEqual([1, 2, 3, 'response']);
      expect(relevant.slice(0, 3).every((m) => (m.params as { progressToken: string }).progressToken === 'p1')).toBe(true);
    } finally {
      await gw.stop();
    }
  });
});
