// Shared by the tests of a headless gateway's control endpoint (deep-decision, pause-timeouts): the built
// CLI gateway (HTTP listener, control endpoint) in front of server-everything with an SDK client
// connected, and the tools/call records its SQLite history file holds once it has stopped.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getExecutionRecord, openStore } from '../../src/main/history/sqlite';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { chaosDir, GatewayProcess, waitFor, type ChaosDir } from '../chaos/harness';
import { everythingBackend } from '../gateway/helpers';

const CONTROL_TOKEN = 'control-token-0123456789abcdef';

export interface ControlledGateway {
  d: ChaosDir;
  gateway: GatewayProcess;
  /** The control endpoint's base URL. */
  control: string;
  /** Headers of a control-endpoint request (its bearer token, JSON). */
  auth: Record<string, string>;
  client: Client;
  close(): Promise<void>;
}

export async function startControlledGateway(clientName: string): Promise<ControlledGateway> {
  const d = chaosDir();
  const gateway = new GatewayProcess(d, { backend: everythingBackend, control: { port: 0, token: CONTROL_TOKEN } });
  const url = await gateway.ready();
  await waitFor(() => /control endpoint on (http:\S+)/.test(gateway.stderr), 20_000, 'the control URL');
  const control = /control endpoint on (http:\S+)/.exec(gateway.stderr)![1]!;
  const client = new Client({ name: clientName, version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    d,
    gateway,
    control,
    auth: { authorization: `Bearer ${CONTROL_TOKEN}`, 'content-type': 'application/json' },
    client,
    close: async () => {
      await client.close().catch(() => undefined);
      await gateway.stop();
      d.cleanup();
    },
  };
}

/** The tools/call records in a history file (read once the gateway stopped). */
export function toolCallRecords(db: string): ExecutionRecord[] {
  const store = openStore(db, { create: false });
  try {
    const uuids = store.db.prepare(`SELECT uuid FROM executions WHERE event = 'tools/call'`).pluck().all() as string[];
    return uuids.map((uuid) => getExecutionRecord(store.db, uuid)!);
  } finally {
    store.close();
  }
}

/**
 * The calls paused at the control endpoint once at least one is, polled as a controller without the event
 * stream does.
 */
export async function nextPaused<T extends { id: string }>(g: ControlledGateway): Promise<T[]> {
  return waitFor(
    async () => {
      const now = (await (await fetch(`${g.control}/paused`, { headers: g.auth })).json()) as T[];
      return now.length > 0 ? now : undefined;
    },
    20_000,
    'a pause',
    50,
  );
}
