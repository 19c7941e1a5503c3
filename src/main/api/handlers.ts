// Procedure name → service call. Thin on purpose: validation is the dispatcher's, behaviour the services'.
import { ApiError } from '../../shared/api/envelope';
import type { ApiEvent } from '../../shared/api/events';
import { ClientConfigError, parseClientConfig } from '../../shared/client-config/parse';
import type { AppEnvironment } from '../services/environment';
import type { GatewayManager } from '../services/gateway-manager';
import type { HistoryService } from '../services/history/history-service';
import type { SettingsStore } from '../services/settings';
import type { ChainPort, ServerPoolPort } from '../services/ports';
import { listExamples, localizeConfig } from '../services/examples';
import { buildSnippets } from '../services/snippets';
import { isPostgresUrl, redactUrl, testConnection } from '../history/postgres';
import { importedServerConfig, importProblem, pasteBackConfig } from '../services/import-servers';
import type { Handlers } from './dispatcher';
import { buildTrafficHandlers } from './handlers-traffic';
import { buildPlaygroundHandlers } from './handlers-playground';
import { buildChainHandlers } from './handlers-chain';
import { buildMessagesHandlers } from './handlers-messages';
import { buildBreakpointsHandlers } from './handlers-breakpoints';
import { buildChainTestHandlers } from './handlers-chain-tests';
import { PauseService } from '../services/breakpoints/pause-service';
import type { PlaygroundServices } from '../services/playground';
import type { StoreTarget } from '../services/history-switch/store-switch';

export interface HandlerDeps {
  env: AppEnvironment;
  manager: GatewayManager;
  settings: SettingsStore;
  history: HistoryService;
  chain?: ChainPort;
  pool?: ServerPoolPort;
  emit(event: ApiEvent): void;
  playground?: PlaygroundServices;
  /** The breakpoints debugger (created here when a test builds handlers without one). */
  pauses?: PauseService;
  ports: { runtimeFactory?: unknown };
  /** Settings → Data: switch the history in-process (app-core wires it; absent in cores built without it). */
  switchStore?(target: StoreTarget): Promise<{ kind: 'sqlite' | 'postgres'; dbPath: string }>;
}

const BUCKETS = 30;

export function buildHandlers(d: HandlerDeps): Handlers {
  const { env, manager, settings, history } = d;
  const chain = () => d.chain ?? unavailable('This console was started without the chain engine, so chain procedures are unavailable.');
  const pool = () => d.pool ?? unavailable('This console was started without interceptor server connections, so they are unavailable.');

  return {
    'app.info': () => ({
      version: env.version,
      mode: env.mode,
      dataDir: env.dataDir,
      // A connection string is shown without its password.
      dbPath: isPostgresUrl(env.dbPath) ? redactUrl(env.dbPath) : env.dbPath,
      ...(env.dbOverride ? { dbOverride: env.dbOverride } : {}),
      capabilities: {
        gateway: Boolean(d.ports.runtimeFactory),
        chain: Boolean(d.chain),
        store: history.kind !== 'memory',
        replay: history.kind !== 'memory',
      },
      ...(history.unavailableReason ? { storeError: history.unavailableReason } : {}),
    }),

    'gateways.list': () => manager.list(),
    'gateways.get': ({ id }) => manager.get(id),
    'gateways.create': ({ id, config, start, localize }) => manager.create(localize ? localizeConfig(config, env) : config, { id, start }),
    'gateways.update': async ({ id, config }) => {
      const info = await manager.update(id, config);
      await d.pool?.release(id);
      return info;
    },
    'gateways.start': ({ id }) => manager.start(id),
    'gateways.stop': ({ id }) => manager.stop(id),
    'gateways.restart': ({ id }) => manager.restart(id),
    'gateways.delete': async ({ id }) => {
      await manager.delete(id);
      await d.pool?.release(id);
      return { done: true as const };
    },
    'gateways.status': ({ id }) => manager.status(id),
    'gateways.stats': async ({ id, minutes }) => {
      manager.status(id); // not_found for an unknown gateway
      const now = env.clock.now().getTime();
      const bucketMs = Math.max(1000, Math.floor((minutes * 60_000) / BUCKETS));
      const since = new Date(Math.floor((now - minutes * 60_000) / bucketMs) * bucketMs);
      const { counters, buckets } = await history.stats(id, since, bucketMs);
      return { gatewayId: id, counters, buckets, recorder: history.recorder.stats() };
    },
    'gateways.snippets': ({ id }) => {
      const g = manager.get(id);
      return buildSnippets({ id, config: manager.config(id), stdioConfigPath: manager.stdioConfigPath(id), url: g.listen.url, env });
    },
    'gateways.examples': () => listExamples(env),
    'gateways.parseClientConfig': ({ text }) => {
      try {
        return parseClientConfig(text);
      } catch (err) {
        if (err instanceof ClientConfigError) throw new ApiError('invalid_input', err.message);
        throw err;
      }
    },
    'gateways.importServers': async ({ servers, withSamples, format }) => {
      const gateways = [];
      const notStarted: { id: string; reason: string }[] = [];
      const pasteBack: { serverName: string; snippet: string }[] = [];
      for (const server of servers) {
        const raw = importedServerConfig(
          server,
          withSamples ? (localizeConfig({ staticInterceptors: [samplesEntry()] }, env).staticInterceptors as unknown[]) : [],
        );
        const problem = importProblem(server);
        let info = await manager.create(raw as Record<string, unknown>);
        // Started only when its command can run here: an untested command would fail its start, or worse look started.
        if (problem) notStarted.push({ id: info.id, reason: problem });
        else {
          try {
            info = await manager.start(info.id);
          } catch (err) {
            notStarted.push({ id: info.id, reason: (err as Error).message });
            info = manager.get(info.id);
          }
        }
        gateways.push(info);
        const snippets = buildSnippets({
          id: info.id,
          config: manager.config(info.id),
          stdioConfigPath: manager.stdioConfigPath(info.id),
          url: info.listen.url,
          env,
        });
        pasteBack.push({ serverName: server.name, snippet: format === 'vscode' ? snippets.stdio.vscode : snippets.stdio.claudeDesktop });
      }
      return { gateways, notStarted, clientConfig: pasteBackConfig(format, pasteBack) };
    },

    'servers.list': ({ id }) => {
      const info = manager.get(id);
      return d.pool && info.status !== 'failed' ? d.pool.states(id, manager.config(id)) : info.interceptorServers;
    },
    'servers.discover': ({ id, server, refresh }) =>
      pool()
        .discover(id, manager.config(id), server, refresh)
        .then((r) => ({ server, ...r })),
    'servers.invoke': ({ id, server, ...params }) => pool().invoke(id, manager.config(id), server, params),

    'chain.dryRun': ({ id, event, phase, payload, context }) => chain().dryRun(id, manager.config(id), event, phase, payload, context ? { context } : {}),

    // history.query / detail / export / count / facets, replay.*, sinks.query: handlers-traffic.ts
    'history.import': async ({ jsonl }) => {
      let imported: number;
      try {
        imported = await history.importJsonl(jsonl);
      } catch (err) {
        throw new ApiError('failed', err instanceof Error ? err.message : String(err));
      }
      d.emit({ type: 'tables.changed', tables: ['executions', 'steps', 'sink_events', 'sessions'] });
      return { imported };
    },
    'history.prune': async (options) => {
      const deleted = await history.prune(options);
      if (deleted > 0) d.emit({ type: 'tables.changed', tables: ['executions', 'steps', 'sink_events', 'messages'] });
      return { deleted };
    },

    'history.prunePreview': (options) => history.prunePreview(options),
    'history.testConnection': async ({ url }) => {
      if (!isPostgresUrl(url)) throw new ApiError('invalid_input', 'Not a PostgreSQL connection string: use postgres://USER:PASSWORD@HOST:PORT/DATABASE.');
      return testConnection(url);
    },

    'history.switchStore': (target) => (d.switchStore ? d.switchStore(target) : unavailable('This console cannot switch its history store while it runs.')),

    'settings.get': () => settings.get(),
    'settings.update': async (patch) => {
      const next = settings.update(patch);
      // A new retention is applied here rather than by the policy's next pass, so the answer says what it
      // deleted (the UI reports it; the periodic pass then finds nothing more).
      const { maxExecutions, maxAgeDays } = next.retention;
      const pruned =
        patch.retention && (maxExecutions || maxAgeDays)
          ? await history.prune({ ...(maxExecutions ? { maxExecutions } : {}), ...(maxAgeDays ? { maxAgeDays } : {}) })
          : undefined;
      d.emit({ type: 'tables.changed', tables: pruned ? ['settings', 'executions', 'steps', 'sink_events', 'messages'] : ['settings'] });
      return { ...next, ...(pruned !== undefined ? { pruned } : {}) };
    },
    ...buildPlaygroundHandlers(d),
    ...buildTrafficHandlers(d),
    ...buildChainHandlers(d),
    ...buildMessagesHandlers(d),
    ...buildChainTestHandlers(d),
    ...buildBreakpointsHandlers(d.pauses ?? new PauseService(manager, d.emit)),
  };
}

function unavailable(message: string): never {
  throw new ApiError('unavailable', message);
}

function samplesEntry() {
  return { transport: 'stdio', name: 'samples', command: 'interceptor-console', arguments: ['serve-samples'] };
}
