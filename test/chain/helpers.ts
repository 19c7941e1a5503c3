// Builders for the engine's in-memory unit tests.
import type { Phase } from '../../src/shared/protocol/constants';
import type { InterceptorDescriptor, InterceptorType, PriorityHint } from '../../src/shared/protocol/schemas';
import { MemoryServerHandle, hangUntilAborted } from '../../src/main/interceptors/chain/index';
import type { MemoryHandler, MemoryInterceptor } from '../../src/main/interceptors/chain/index';
import type { DiscoveredInterceptor } from '../../src/main/interceptors/chain/index';
import type { ChainTrace, TraceStep } from '../../src/shared/trace/types';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { InterceptorServerClient } from '../../src/main/interceptors/client/index';
import type { InterceptorHost } from '../../src/main/interceptors/host/index';

export interface DescOptions {
  events?: string[];
  phases?: Phase[];
  mode?: 'active' | 'audit';
  failOpen?: boolean;
  priorityHint?: PriorityHint;
  compat?: { minProtocol: string; maxProtocol?: string };
}

export function desc(name: string, type: InterceptorType, o: DescOptions = {}): InterceptorDescriptor {
  const events = o.events ?? ['tools/call'];
  const d: InterceptorDescriptor = { name, type, hooks: (o.phases ?? ['request', 'response']).map((phase) => ({ events, phase })) };
  if (o.mode) d.mode = o.mode;
  if (o.failOpen !== undefined) d.failOpen = o.failOpen;
  if (o.priorityHint !== undefined) d.priorityHint = o.priorityHint;
  if (o.compat) d.compat = o.compat;
  return d;
}

export function ic(descriptor: InterceptorDescriptor, handler: MemoryHandler): MemoryInterceptor {
  return { descriptor, handler };
}

export const allow: MemoryHandler = () => ({ valid: true });
export const deny: MemoryHandler = () => ({ valid: false, severity: 'error', messages: [{ message: 'denied by policy', severity: 'error' }] });
export const crash: MemoryHandler = () => {
  throw new Error('boom');
};
export const hang: MemoryHandler = (call) => hangUntilAborted(call.signal);
export const record: MemoryHandler = () => ({ recorded: true });

/** Mutator appending `suffix` to arguments.note. */
export function appendNote(suffix: string): MemoryHandler {
  return ({ payload }) => {
    const p = structuredClone(payload) as { arguments: { note: string } };
    p.arguments.note += suffix;
    return { modified: true, payload: p };
  };
}

export function memServer(name: string, interceptors: MemoryInterceptor[], failOpen = false): MemoryServerHandle {
  return new MemoryServerHandle(name, interceptors, { failOpen });
}

export function discovered(server: string, serverIndex: number, descriptors: InterceptorDescriptor[]): DiscoveredInterceptor[] {
  return descriptors.map((descriptor, listIndex) => ({ server, serverIndex, listIndex, descriptor }));
}

export const call = (note: string) => ({ name: 'echo', arguments: { note } });

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function stepOf(trace: ChainTrace, id: string): TraceStep {
  const step = trace.steps.find((s) => s.id === id);
  if (!step) throw new Error(`no step ${id} in trace`);
  return step;
}

/** A real invoker client on `host` over the SDK's in-memory transport pair (the caller closes it). */
export function inMemoryClient(name: string, host: InterceptorHost, failOpen = false): InterceptorServerClient {
  return new InterceptorServerClient({
    name,
    failOpen,
    autoReconnect: false,
    connection: {
      transport: 'custom',
      label: `in-memory ${name}`,
      connect: async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await host.createServer().connect(serverSide);
        return clientSide;
      },
    },
  });
}
