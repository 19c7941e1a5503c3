// The messages of call i of the killed gateway (pg-messages-then-die.ts), with ids fixed by i: the test
// hands the very same records to a recorder again to check that a replay writes none twice.
import type { MessageRecord } from '../../../src/shared/trace/messages';

export function killedGatewayMessages(i: number, executionId: string): MessageRecord[] {
  const at = Date.UTC(2025, 0, 1) + i;
  const id = (n: number) => `10000000-0000-4000-8000-${String(i * 3 + n).padStart(12, '0')}`;
  const base = { gateway: 'killed-gw', sessionId: 'killed-session', at, method: 'tools/call', jsonrpcId: i, executionId } as const;
  return [
    {
      ...base,
      id: id(0),
      side: 'client',
      direction: 'in',
      kind: 'request',
      message: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { text: `call ${i}` } } },
    },
    {
      ...base,
      id: id(1),
      side: 'backend',
      direction: 'out',
      kind: 'request',
      message: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo' } },
    },
    { ...base, id: id(2), side: 'client', direction: 'out', kind: 'response', message: { jsonrpc: '2.0', id: i, result: { content: [] } } },
  ];
}
