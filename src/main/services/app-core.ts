// The core the app runs on, whatever the shell (Electron, web mode, tests): services wired to one
// dispatcher and one event stream. Parts owned by other capabilities come in through ports; a port
// that is missing makes its procedures answer `unavailable` instead of failing obscurely.
import type { ApiEvent } from '../../shared/api/events';
import { createDispatcher, type Dispatcher } from '../api/dispatcher';
import { buildHandlers } from '../api/handlers';
import type { AppEnvironment } from './environment';
import { GatewayManager } from './gateway-manager';
import type { GatewayRuntimeFactory } from './gateway-runtime';
import type { RecordingHistory } from '../history/model/history-store';
import { HistoryService } from './history/history-service';
import { RecorderWithLiveUpdates } from './recorder-with-live-updates';
import { SettingsStore } from './settings';
import { ensureDemoGateway } from './demo-gateway';
import type { ChainPort, ServerPoolPort } from './ports';
import { PlaygroundServices } from './playground';
import { HistoryPolicy } from './history-policy';
import { PauseService } from './breakpoints/pause-service';
import { SwitchableHistory } from './history-switch/switchable-history';
import { switchHistoryStore } from './history-switch/store-switch';

export interface CorePorts {
  history: RecordingHistory;
  runtimeFactory?: GatewayRuntimeFactory;
  chain?: ChainPort;
  pool?: ServerPoolPort;
}

export interface AppCore {
  readonly env: AppEnvironment;
  readonly dispatcher: Dispatcher;
  readonly manager: GatewayManager;
  readonly settings: SettingsStore;
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** Loads gateways, creates the demo gateway on first start, restarts those that were running. */
  start(options?: { demo?: boolean }): Promise<void>;
  /** Stops every gateway (killing their children), closes interceptor connections, flushes the store. */
  shutdown(): Promise<void>;
}

export function createAppCore(env: AppEnvironment, ports: CorePorts): AppCore {
  const listeners = new Set<(event: ApiEvent) => void>();
  const emit = (event: ApiEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        env.logger.warn('event listener failed', err);
      }
    }
  };
  // Settings can switch the store while the console runs: every service holds this one forwarding history.
  const history = new SwitchableHistory(ports.history);
  const historyService = new HistoryService(history);
  const recorder = new RecorderWithLiveUpdates(history.recorder, emit);
  // Simulations wrap the runtime factory, so the Playground exists before the manager it serves.
  const playground = new PlaygroundServices(
    env.version,
    () => emit({ type: 'tables.changed', tables: ['gateways'] }),
    (sessionId, pending) => emit({ type: 'client.requests', sessionId, pending }),
    (waiting) => emit({ type: 'client.authorizations', waiting }),
  );
  const manager = new GatewayManager(env, recorder, playground.withSimulation(ports.runtimeFactory));
  playground.attach(manager);
  manager.onEvent(emit);
  const settings = new SettingsStore(env.dataDir, env.logger, (next) => historyService.checkRedaction(next.redactPaths));
  const pauses = new PauseService(manager, emit);
  const handlers = buildHandlers({
    env,
    manager,
    settings,
    history: historyService,
    chain: ports.chain,
    pool: ports.pool,
    emit,
    ports,
    playground,
    pauses,
    switchStore: (target) => switchHistoryStore({ env, settings, history, emit }, target),
  });
  const dispatcher = createDispatcher(handlers, env.logger);
  const policy = new HistoryPolicy(historyService, () => settings.get(), env.logger, emit);
  listeners.add((event) => {
    if (event.type === 'tables.changed' && event.tables.includes('settings')) policy.apply();
  });
  let shutdownPromise: Promise<void> | undefined;

  return {
    env,
    dispatcher,
    manager,
    settings,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start(options = {}) {
      policy.start();
      manager.load();
      const demo = options.demo ?? settings.get().demoGateway;
      if (demo && ports.runtimeFactory) await ensureDemoGateway(env, manager);
      await manager.startAutoStart();
    },
    shutdown() {
      shutdownPromise ??= (async () => {
        policy.stop();
        pauses.close();
        await playground.close().catch((err: unknown) => env.logger.warn('closing client sessions failed', err));
        await manager.stopAll();
        await ports.pool?.close().catch((err: unknown) => env.logger.warn('closing interceptor connections failed', err));
        await recorder.flush().catch((err: unknown) => env.logger.warn('flushing the store failed', err));
        await history.close().catch((err: unknown) => env.logger.warn('closing the store failed', err));
      })();
      return shutdownPromise;
    },
  };
}
