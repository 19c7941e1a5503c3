// Replays recorded executions through their gateway's current chain, with or without its backend. One
// Replayer serves one replay or a whole bulk job: it keeps one replay session per (gateway, principal,
// protocol version) so a bulk job does not start a backend per execution, and closes them all at the end.
import { ApiError } from '../../../shared/api/envelope';
import type { ReplayMode } from '../../../shared/api/models-traffic';
import type { ExecutionRecord, Recorder } from '../../../shared/trace/execution';
import { Gateway } from '../../gateway';
import { ReplayClient, SERVER_TO_CLIENT_METHODS, type ReplayHost } from '../../gateway/replay/replay';
import { replayChainOnly } from '../../gateway/replay/replay-chain';
import type { GatewayManager } from '../gateway-manager';
import type { ExecutionDetail } from '../../history/model/executions';

export interface ReplayerDeps {
  manager: GatewayManager;
  recorder: Recorder;
  /** The live gateway of a running runtime, when there is one (its connections are reused). */
  liveHost(gatewayId: string): ReplayHost | undefined;
}

interface HostLease {
  host: ReplayHost;
  /** Set for a gateway built just for replaying (not running): its interceptor servers are closed after. */
  transient?: Gateway;
}

export class Replayer {
  private readonly hosts = new Map<string, Promise<HostLease>>();
  private readonly clients = new Map<string, Promise<ReplayClient>>();

  constructor(private readonly deps: ReplayerDeps) {}

  /** Replays one recorded execution; `params` replaces the recorded request params (Edit & replay). */
  async replay(original: ExecutionDetail, mode: ReplayMode, params?: unknown): Promise<ExecutionRecord> {
    const host = await this.hostFor(original.gateway);
    const request = params !== undefined ? params : (original.requestReceived ?? {});
    const principal = original.session?.principal?.type === 'user' ? original.session.principal.id : undefined;
    const protocolVersion = original.session?.protocolVersion;
    if (mode === 'chain-only') {
      // The backend's answer to the original is what the response phase runs on; a blocked or failed
      // original has none, so only its request phase can run (see replay-chain.ts).
      const reachedBackend = original.requestForwarded !== undefined && !original.blockedBy;
      return replayChainOnly(host, this.deps.recorder, {
        method: original.event,
        params: request,
        replayOf: original.id,
        ...(reachedBackend && original.responseReceived !== undefined ? { recordedResponse: original.responseReceived } : {}),
        ...(reachedBackend && original.responseReceived === undefined && original.errorReturned ? { recordedError: original.errorReturned } : {}),
        ...(principal ? { principal } : {}),
        ...(protocolVersion ? { protocolVersion } : {}),
      });
    }
    if (SERVER_TO_CLIENT_METHODS.has(original.event)) {
      throw new ApiError(
        'invalid_input',
        `${original.event} is a request the backend sent to the client: it cannot be re-sent to the backend. Use "Replay chain only".`,
      );
    }
    const client = await this.clientFor(host, original.gateway, principal, protocolVersion);
    return client.send(original.event, request, original.id);
  }

  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(clients.map((c) => c.then((x) => x.close()).catch(() => undefined)));
    const leases = await Promise.allSettled([...this.hosts.values()]);
    const transient = leases.flatMap((l) => (l.status === 'fulfilled' && l.value.transient ? [l.value.transient] : []));
    this.hosts.clear();
    await Promise.all(transient.map((g) => g.interception.close().catch(() => undefined)));
  }

  private async hostFor(gatewayId: string): Promise<ReplayHost> {
    let lease = this.hosts.get(gatewayId);
    if (!lease) {
      if (!this.deps.manager.has(gatewayId)) {
        throw new ApiError(
          'not_found',
          `The gateway "${gatewayId}" that recorded this execution is not configured here any more: a replay needs its current chain. Import or recreate the gateway, then replay.`,
        );
      }
      lease = this.lease(gatewayId);
      this.hosts.set(gatewayId, lease);
    }
    return (await lease).host;
  }

  private async lease(gatewayId: string): Promise<HostLease> {
    const live = this.deps.liveHost(gatewayId);
    if (live) return { host: live };
    // Not running: its config still defines the chain and the backend; nothing listens. Its interceptor
    // servers are started and discovered first, as a running gateway's are, so that a slow start is not
    // mistaken for a fail-closed server (a server that really fails still fails the replay, as it would).
    const gateway = new Gateway(this.deps.manager.config(gatewayId), { name: gatewayId });
    await Promise.allSettled(gateway.interception.servers.map((h) => h.discover()));
    return { host: gateway, transient: gateway };
  }

  private clientFor(host: ReplayHost, gatewayId: string, principal: string | undefined, protocolVersion: string | undefined): Promise<ReplayClient> {
    const key = `${gatewayId}\u0000${principal ?? ''}\u0000${protocolVersion ?? ''}`;
    let client = this.clients.get(key);
    if (!client) {
      client = ReplayClient.open(host, this.deps.recorder, {
        ...(principal ? { principal } : {}),
        ...(protocolVersion ? { protocolVersion } : {}),
      }).catch((err: unknown) => {
        this.clients.delete(key);
        throw new ApiError('failed', `Could not reach the backend of gateway "${gatewayId}" to replay: ${(err as Error).message}`);
      });
      this.clients.set(key, client);
    }
    return client;
  }
}
