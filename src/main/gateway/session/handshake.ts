// What a session knows about its client from the opening exchange: the 2025 `initialize` (kept to replay
// on a reconnected backend) or the 2026-07-28 per-request envelope, the negotiated version, and the
// session record the recorder gets once the handshake completed.
import { sessionRecord } from './exchange';
import type { JsonRpcRequest } from '../wire/jsonrpc';
import type { SessionHost } from './host';

const ENVELOPE_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const ENVELOPE_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

export class Handshake {
  initRequest?: JsonRpcRequest;
  initialized = false;
  protocolVersion?: string;
  /** 2026-07-28 requests carry the client's identity in a per-request `_meta` envelope instead of initialize. */
  private envelopeClientInfo?: unknown;

  constructor(
    private readonly host: SessionHost,
    private readonly session: { id: string; principal: string | undefined; transport: 'stdio' | 'http' },
  ) {}

  /** Reads the envelope of requests sent before the handshake completed (2026-07-28 clients). */
  noteRequest(req: JsonRpcRequest): void {
    if (this.initialized) return;
    const meta = req.params?._meta as Record<string, unknown> | undefined;
    const version = meta?.[ENVELOPE_PROTOCOL_VERSION];
    if (typeof version !== 'string') return;
    this.protocolVersion = version;
    this.envelopeClientInfo = meta![ENVELOPE_CLIENT_INFO];
  }

  /** The initialize to replay on a fresh backend after a crash (2025 era; the 2026 era has none). */
  replayable(): JsonRpcRequest | undefined {
    return this.initialized ? this.initRequest : undefined;
  }

  /** The backend accepted the client's initialize. */
  completeInitialize(protocolVersion: unknown): void {
    if (typeof protocolVersion === 'string') this.protocolVersion = protocolVersion;
    this.initialized = true;
    this.record(this.initRequest?.params?.clientInfo);
  }

  /** The backend answered server/discover (no initialize in the 2026-07-28 era). */
  completeDiscover(): void {
    if (this.initialized) return;
    this.initialized = true;
    this.record(this.envelopeClientInfo);
  }

  private record(clientInfo: unknown): void {
    this.host.onSession(
      sessionRecord({
        id: this.session.id,
        gateway: this.host.gatewayName,
        transport: this.session.transport,
        principal: this.session.principal,
        protocolVersion: this.protocolVersion,
        clientInfo,
      }),
    );
  }
}
