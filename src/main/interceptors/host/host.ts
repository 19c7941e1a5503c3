// InterceptorHost: a set of registered interceptors served over MCP. It answers `interceptors/list`
// and `interceptor/invoke` on any low-level `Server` it is attached to, advertises the capability
// under the SEP-2133 extensions key (A16, never top-level `capabilities.interceptor`), and tells
// attached servers `notifications/interceptors/list_changed` when registrations change (A15).
import { ProtocolError, Server, type ServerOptions } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ErrorCode, INTERCEPTORS_EXTENSION_ID, METHOD_INVOKE, METHOD_LIST, NOTIFICATION_LIST_CHANGED } from '../../../shared/protocol/constants';
import { hooksCoverPattern } from '../../../shared/protocol/events';
import {
  InvokeParamsSchema,
  ListParamsSchema,
  type InterceptorDescriptor,
  type InterceptorResult,
  type InvokeParams,
  type ListResult,
} from '../../../shared/protocol/schemas';
import { DEFAULT_MAX_PAYLOAD_BYTES, jsonByteLength, payloadTooLarge } from '../../../shared/protocol/payload-size';
import { descriptorToWire } from '../../../shared/protocol/wire';
import { passesInvokeParams } from '../../../shared/protocol/invoke-fast-check';
import { executeInvokeNow } from './invoke';
import type { HandlerOffload } from './worker-pool';
import { normalizeRegistration, type RegisteredInterceptor } from './registration';
import { mutator, sink, validator, type InterceptorRegistration, type MutatorRegistration, type SinkRegistration, type ValidatorRegistration } from './types';

export interface InterceptorHostOptions {
  /** MCP `serverInfo` of servers created by `createServer()`. */
  serverInfo?: { name: string; version: string };
  /** Deadline for invokes that carry no `timeoutMs`. Default 30 s. */
  defaultTimeoutMs?: number;
  /** When set, `interceptors/list` returns at most this many descriptors and a `nextCursor`. */
  pageSize?: number;
  /**
   * Largest invoke payload (UTF-8 bytes of its JSON) a handler is given; a larger one is refused
   * with -32602 before any work (the invoker routes that by failOpen). Default 4 MB.
   */
  maxPayloadBytes?: number;
  /**
   * Runs accepted handlers off the host's thread (WorkerHandlerPool), so one heavy call neither delays
   * other calls nor outlives its cancellation or deadline. Closed by `close()`.
   */
  offload?: HandlerOffload;
}

// Params are validated by our own schemas so that the error messages are ours, not the SDK's.
const PassThrough = z.unknown();

export class InterceptorHost {
  private readonly entries = new Map<string, RegisteredInterceptor>();
  private readonly attached = new Set<Server>();
  readonly defaultTimeoutMs: number;
  readonly pageSize: number | undefined;
  readonly maxPayloadBytes: number;
  private readonly offload: HandlerOffload | undefined;
  readonly serverInfo: { name: string; version: string };

  constructor(options: InterceptorHostOptions = {}) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
    this.pageSize = options.pageSize && options.pageSize > 0 ? Math.floor(options.pageSize) : undefined;
    this.serverInfo = options.serverInfo ?? { name: 'interceptor-host', version: '0.1.0' };
    this.maxPayloadBytes = options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
    this.offload = options.offload;
  }

  /** Stops the offload's workers (and with them any call still running there). */
  async close(): Promise<void> {
    await this.offload?.close();
  }

  /** Registers a tagged registration (what `validator()`/`mutator()`/`sink()` and the samples produce). */
  register(registration: InterceptorRegistration): this {
    if (this.entries.has(registration.name)) {
      throw new Error(`An interceptor named '${registration.name}' is already registered on this host (names are unique per host).`);
    }
    this.entries.set(registration.name, normalizeRegistration(registration));
    this.notifyListChanged();
    return this;
  }

  registerValidator<C = Record<string, unknown>>(r: ValidatorRegistration<C>): this {
    return this.register(validator(r));
  }
  registerMutator<C = Record<string, unknown>>(r: MutatorRegistration<C>): this {
    return this.register(mutator(r));
  }
  registerSink<C = Record<string, unknown>>(r: SinkRegistration<C>): this {
    return this.register(sink(r));
  }

  unregister(name: string): boolean {
    const removed = this.entries.delete(name);
    if (removed) this.notifyListChanged();
    return removed;
  }

  /** Descriptors in registration order (not yet wire-normalised). */
  descriptors(): InterceptorDescriptor[] {
    return [...this.entries.values()].map((e) => e.descriptor);
  }

  /** The capability value: sorted unique hook events, or `["*"]` when nothing is registered. */
  capability(): { supportedEvents: string[] } {
    const events = new Set<string>();
    for (const d of this.descriptors()) for (const h of d.hooks) for (const e of h.events) events.add(e);
    return { supportedEvents: events.size ? [...events].sort() : ['*'] };
  }

  /** `interceptors/list`; throws ProtocolError(-32602) for bad params. */
  list(rawParams: unknown): ListResult {
    const parsed = ListParamsSchema.safeParse(rawParams ?? undefined);
    if (!parsed.success) throw invalidParams('interceptors/list', parsed.error);
    const { event, cursor } = parsed.data ?? {};
    if (event !== undefined && event.length === 0) {
      throw new ProtocolError(ErrorCode.InvalidParams, 'interceptors/list: event must be an event name such as "tools/call", "*" or "tools/*", got ""', {
        event,
      });
    }
    // Liberal in what we accept (the TS reference sends "*"): a pattern answers the interceptors hooking it.
    const matching = this.descriptors().filter((d) => event === undefined || hooksCoverPattern(d.hooks, event));
    const start = cursor === undefined ? 0 : decodeCursor(cursor);
    if (start > matching.length) {
      throw new ProtocolError(ErrorCode.InvalidParams, `interceptors/list: cursor ${JSON.stringify(cursor)} is past the end of the list`, { cursor });
    }
    const end = this.pageSize ? start + this.pageSize : matching.length;
    const page = matching.slice(start, end).map(descriptorToWire);
    return end < matching.length ? { interceptors: page, nextCursor: encodeCursor(end) } : { interceptors: page };
  }

  /** `interceptor/invoke`; throws ProtocolError for every failure (see invoke.ts). */
  async invoke(rawParams: unknown, requestSignal?: AbortSignal): Promise<InterceptorResult> {
    return this.invokeFromWire(rawParams, undefined, requestSignal);
  }

  /**
   * `interceptor/invoke` as read from a wire line (the stdio fast path, stdio-transport.ts): the common
   * params shapes skip zod's copying pass, and `lineBytes` (the size of the line the params came in, an
   * upper bound of the payload's) spares measuring the payload when it is below every size limit. A
   * synchronous handler is answered synchronously; every failure is a thrown (or rejected) ProtocolError.
   */
  invokeFromWire(
    rawParams: unknown,
    lineBytes: number | undefined,
    requestSignal?: AbortSignal | (() => AbortSignal),
  ): InterceptorResult | Promise<InterceptorResult> {
    let params: InvokeParams;
    if (passesInvokeParams(rawParams)) params = rawParams;
    else {
      const parsed = InvokeParamsSchema.safeParse(rawParams);
      if (!parsed.success) throw invalidParams('interceptor/invoke', parsed.error);
      params = parsed.data;
    }
    // Below both limits (the host's cap, the offload's threshold) any size gives the same decisions; an
    // offload that does not say its threshold gets every payload measured.
    const exactFrom = Math.min(this.maxPayloadBytes, this.offload ? (this.offload.minPayloadBytes ?? 0) : Infinity);
    const payloadBytes = lineBytes !== undefined && lineBytes < exactFrom ? lineBytes : jsonByteLength(params.payload);
    return this.run(params, payloadBytes, requestSignal);
  }

  /**
   * `interceptor/invoke` from this process (an in-process handle, bundled/in-process-handle.ts): `params`
   * are typed already, so they skip the wire's schema pass; the handler gets its own copy of the payload,
   * read back from the JSON text its size is measured on (one stringify and one parse, as a wire costs).
   * Every other check, the deadline and the result's shaping are those of invoke(). A synchronous handler
   * is answered synchronously (a result, or a ProtocolError thrown).
   */
  invokeLocalNow(params: InvokeParams, requestSignal?: AbortSignal): InterceptorResult | Promise<InterceptorResult> {
    const text = JSON.stringify(params.payload);
    const own: InvokeParams = { ...params, payload: text === undefined ? undefined : JSON.parse(text) };
    return this.run(own, text === undefined ? 0 : Buffer.byteLength(text, 'utf8'), requestSignal);
  }

  private run(params: InvokeParams, payloadBytes: number, requestSignal?: AbortSignal | (() => AbortSignal)): InterceptorResult | Promise<InterceptorResult> {
    const entry = this.entries.get(params.name);
    if (!entry) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Interceptor '${params.name}' not found`, { name: params.name });
    }
    if (payloadBytes > this.maxPayloadBytes) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Payload of ${payloadBytes} bytes for interceptor '${params.name}' is over this host's limit of ${this.maxPayloadBytes} bytes; ` +
          "send a smaller payload or raise the host's maxPayloadBytes",
        payloadTooLarge(params.name, payloadBytes, this.maxPayloadBytes),
      );
    }
    return executeInvokeNow(entry, params, {
      defaultTimeoutMs: this.defaultTimeoutMs,
      requestSignal,
      payloadBytes,
      ...(this.offload ? { offload: this.offload } : {}),
    });
  }

  /**
   * Installs the two handlers on a low-level Server and registers the capability.
   * Call before `server.connect()` (the SDK only accepts capabilities before connecting).
   */
  attach(server: Server): Server {
    server.registerCapabilities({ extensions: { [INTERCEPTORS_EXTENSION_ID]: this.capability() } });
    server.setRequestHandler(METHOD_LIST, { params: PassThrough }, async (params) => this.list(params) as never);
    server.setRequestHandler(METHOD_INVOKE, { params: PassThrough }, async (params, ctx) => (await this.invoke(params, ctx.mcpReq.signal)) as never);
    this.attached.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      this.attached.delete(server);
      previous?.();
    };
    return server;
  }

  /** A fresh Server with this host attached: one per connection (stdio) or per HTTP session. */
  createServer(options: ServerOptions = {}): Server {
    return this.attach(new Server(this.serverInfo, options));
  }

  private notifyListChanged(): void {
    for (const server of this.attached) {
      if (!server.transport) continue;
      // Best effort: a server whose peer went away just drops the notification.
      server.notification({ method: NOTIFICATION_LIST_CHANGED }).catch(() => undefined);
    }
  }
}

function invalidParams(method: string, error: z.ZodError): ProtocolError {
  const details = error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : 'params'}: ${i.message}`)
    .join('; ');
  return new ProtocolError(ErrorCode.InvalidParams, `${method}: invalid params: ${details}`, {
    issues: error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
  });
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^offset:(\d+)$/.exec(text);
  if (!m) {
    throw new ProtocolError(ErrorCode.InvalidParams, `interceptors/list: unknown cursor ${JSON.stringify(cursor)}; pass back a nextCursor this host returned`, {
      cursor,
    });
  }
  return Number(m[1]);
}
