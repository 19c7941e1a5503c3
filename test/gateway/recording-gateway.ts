// A gateway in this process that records into memory, listening over HTTP with a real SDK client connected:
// for tests that look at what a gateway records of the calls they make.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway } from '../../src/main/gateway';
import type { GatewayConfig } from '../../src/shared/config';
import { MemoryRecorder, type ExecutionRecord } from '../../src/shared/trace/execution';

export interface RecordingGatewaySession {
  gateway: Gateway;
  client: Client;
  /** The tools/call executions recorded so far, once every record waiting (on sinks, the recorder) has landed. */
  toolCalls(): Promise<ExecutionRecord[]>;
}

/** Starts the gateway (`config` must listen over HTTP), connects `clientName`, runs `body`, then stops both. */
export async function withRecordingGateway<T>(config: GatewayConfig, clientName: string, body: (session: RecordingGatewaySession) => Promise<T>): Promise<T> {
  const recorder = new MemoryRecorder();
  const gateway = new Gateway(config, { recorder });
  await gateway.start();
  const client = new Client({ name: clientName, version: '1.0.0' }, { capabilities: {} });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url!)));
    const toolCalls = async () => {
      await gateway.recordsSettled();
      await recorder.flush();
      return recorder.executions.filter((e) => e.event === 'tools/call');
    };
    return await body({ gateway, client, toolCalls });
  } finally {
    await client.close();
    await gateway.stop();
  }
}
