// Runs several gateways in one process and owns their configs on disk:
// `<dataDir>/gateways/<id>.json` is each gateway's config file exactly as `interceptor-console gateway
// --config` reads it (so a client can launch the same gateway headless), and
// `<dataDir>/gateways/registry.json` keeps what only the app needs (auto-start, demo flag). The "Connect
// a client" stdio snippets launch the headless gateway on that same file (`--listen stdio` when the
// console runs it over HTTP), so a chain saved in the Chain screen is what a stdio client runs, hot-reloaded.
// (Older versions wrote a stdio copy, `<id>.stdio.json`, that went stale; it is removed on load.)
// Every file here may hold bearer tokens: 0600 in a 0700 folder (files/private-files.ts).
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { formatConfigErrors, parseGatewayConfig, type GatewayConfig } from '../../shared/config';
import { ApiError } from '../../shared/api/envelope';
import type { GatewayInfo, GatewayStatus } from '../../shared/api/models';
import type { ApiEvent } from '../../shared/api/events';
import type { Recorder } from '../../shared/trace/execution';
import type { AppEnvironment } from './environment';
import type { GatewayRuntime, GatewayRuntimeFactory } from './gateway-runtime';
import type { ReplayHost } from '../gateway/replay/replay';
import { ensurePrivateDir, makePrivate, writePrivateFileAtomic } from '../files/private-files';
import { backendSummary, configuredUrl, serverStatesFromConfig, slugify } from './gateway-summary';

interface RegistryEntry {
  id: string;
  autoStart: boolean;
  demo: boolean;
  createdAt: string;
}

interface Entry extends RegistryEntry {
  raw: Record<string, unknown>;
  config?: GatewayConfig;
  status: GatewayStatus;
  error?: string;
  runtime?: GatewayRuntime;
  startedAt?: string;
  /** The last config swap of the running gateway (hot, or a restart forced by a backend/listener change). */
  lastReload?: { at: string; restarted: boolean };
  /** Serialises start/stop/update of one gateway. */
  queue: Promise<unknown>;
}

export class GatewayManager {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  private readonly dir: string;

  constructor(
    private readonly env: AppEnvironment,
    private readonly recorder: Recorder,
    private readonly factory: GatewayRuntimeFactory | undefined,
  ) {
    this.dir = join(env.dataDir, 'gateways');
  }

  /** Reads the registry; a config file that no longer validates is listed as failed, not dropped. */
  load(): void {
    ensurePrivateDir(this.dir);
    const registryPath = join(this.dir, 'registry.json');
    makePrivate(registryPath); // files written 0644 by an older version
    let registry: RegistryEntry[] = [];
    if (existsSync(registryPath)) {
      try {
        registry = JSON.parse(readFileSync(registryPath, 'utf8')) as RegistryEntry[];
      } catch (err) {
        this.env.logger.error(`gateway registry ${registryPath} is unreadable; starting with none (the file is kept)`, err);
        renameSync(registryPath, `${registryPath}.unreadable-${Date.now()}`);
      }
    }
    for (const r of registry) {
      let raw: Record<string, unknown> = {};
      let error: string | undefined;
      try {
        raw = JSON.parse(readFileSync(this.configPath(r.id), 'utf8')) as Record<string, unknown>;
      } catch (err) {
        error = `config file ${this.configPath(r.id)} is unreadable: ${(err as Error).message}`;
      }
      const parsed = error ? undefined : parseGatewayConfig(raw);
      if (parsed && !parsed.ok) error = `config is invalid:\n${formatConfigErrors(parsed.errors)}`;
      makePrivate(this.configPath(r.id));
      rmSync(this.staleStdioCopyPath(r.id), { force: true });
      this.entries.set(r.id, {
        ...r,
        raw,
        config: parsed?.ok ? parsed.config : undefined,
        status: error ? 'failed' : 'stopped',
        error,
        queue: Promise.resolve(),
      });
    }
  }

  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  configPath(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  /** The config a client launches headless: the gateway's own file, the one the Chain screen saves. */
  stdioConfigPath(id: string): string {
    return this.configPath(id);
  }

  /** Where versions before the `--listen stdio` snippet kept a stdio copy of the config. */
  private staleStdioCopyPath(id: string): string {
    return join(this.dir, `${id}.stdio.json`);
  }

  list(): GatewayInfo[] {
    return [...this.entries.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((e) => this.info(e));
  }

  get(id: string): GatewayInfo & { config: Record<string, unknown> } {
    const e = this.entry(id);
    return { ...this.info(e), config: e.raw };
  }

  /** The validated config of a gateway (for the server pool, chain order, snippets). */
  config(id: string): GatewayConfig {
    const e = this.entry(id);
    if (!e.config) throw new ApiError('invalid_config', `Gateway "${id}" has an invalid config: ${e.error ?? 'unknown error'}`);
    return e.config;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The runtime of a gateway running in this process (undefined otherwise). */
  runtimeOf(id: string): GatewayRuntime | undefined {
    return this.entries.get(id)?.runtime;
  }

  /** The running gateway to replay through (undefined when it is not running in this process). */
  replayHost(id: string): ReplayHost | undefined {
    return this.entry(id).runtime?.replayHost?.();
  }

  async create(raw: Record<string, unknown>, options: { id?: string; start?: boolean; demo?: boolean } = {}): Promise<GatewayInfo> {
    const config = validate(raw);
    const base = options.id ?? slugify(config.serverInfo?.name ?? config.backend.name);
    if (options.id && this.entries.has(options.id)) throw new ApiError('conflict', `A gateway with id "${options.id}" already exists; pick another id.`);
    const id = this.uniqueId(base);
    const entry: Entry = {
      id,
      autoStart: false,
      demo: options.demo ?? false,
      createdAt: this.env.clock.now().toISOString(),
      raw,
      config,
      status: 'stopped',
      queue: Promise.resolve(),
    };
    this.writeConfig(id, raw);
    this.entries.set(id, entry);
    this.saveRegistry();
    this.emit({ type: 'tables.changed', tables: ['gateways'] });
    // A stdio gateway is launched by its client, never here: creating it is all there is to do.
    if (options.start && config.listen.transport === 'http') return this.start(id);
    return this.info(entry);
  }

  /**
   * Replaces a gateway's config. `text` (the file content, e.g. from the Chain screen's JSON tab) is written
   * byte for byte when given. A running gateway hot-reloads: its sessions survive, in-flight requests
   * finish on the old chain; runtimes that cannot reload are restarted.
   */
  async update(id: string, raw: Record<string, unknown>, options: { text?: string } = {}): Promise<GatewayInfo> {
    const e = this.entry(id);
    const config = validate(raw);
    return this.serial(e, async () => {
      const runtime = e.status === 'running' ? e.runtime : undefined;
      const wasRunning = e.status === 'running' || e.status === 'starting';
      if (wasRunning && !runtime?.reload) await this.stopNow(e);
      e.raw = raw;
      e.config = config;
      e.error = undefined;
      if (e.status === 'failed') this.setStatus(e, 'stopped');
      this.writeConfig(id, raw, options.text);
      if (runtime?.reload) {
        const { restarted } = await runtime.reload(config);
        e.lastReload = { at: this.env.clock.now().toISOString(), restarted };
        this.emit({ type: 'gateway.reloaded', id, ...e.lastReload });
      } else if (wasRunning) await this.startNow(e);
      this.emit({ type: 'tables.changed', tables: ['gateways'] });
      return this.info(e);
    });
  }

  async start(id: string): Promise<GatewayInfo> {
    const e = this.entry(id);
    return this.serial(e, async () => {
      if (e.status !== 'running') await this.startNow(e);
      if (!e.autoStart) {
        e.autoStart = true;
        this.saveRegistry();
      }
      return this.info(e);
    });
  }

  async stop(id: string): Promise<GatewayInfo> {
    const e = this.entry(id);
    return this.serial(e, async () => {
      await this.stopNow(e);
      if (e.autoStart) {
        e.autoStart = false;
        this.saveRegistry();
      }
      return this.info(e);
    });
  }

  async restart(id: string): Promise<GatewayInfo> {
    const e = this.entry(id);
    return this.serial(e, async () => {
      await this.stopNow(e);
      await this.startNow(e);
      return this.info(e);
    });
  }

  async delete(id: string): Promise<void> {
    const e = this.entry(id);
    await this.serial(e, () => this.stopNow(e));
    this.entries.delete(id);
    rmSync(this.configPath(id), { force: true });
    rmSync(this.staleStdioCopyPath(id), { force: true });
    this.saveRegistry();
    this.emit({ type: 'tables.changed', tables: ['gateways'] });
  }

  status(id: string): { id: string; status: GatewayStatus; error?: string } {
    const e = this.entry(id);
    return { id, status: e.status, ...(e.error ? { error: e.error } : {}) };
  }

  /** Starts every gateway that was running when the app last stopped; failures are reported per gateway. */
  async startAutoStart(): Promise<void> {
    const auto = [...this.entries.values()].filter((e) => e.autoStart && e.config);
    await Promise.all(auto.map((e) => this.start(e.id).catch(() => undefined)));
  }

  /** On quit: stops every gateway (and so every child process), keeping auto-start flags for next time. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.serial(e, () => this.stopNow(e)).catch(() => undefined)));
  }

  private async startNow(e: Entry): Promise<void> {
    if (!e.config) throw new ApiError('invalid_config', `Gateway "${e.id}" cannot start: ${e.error ?? 'its config is invalid'}`);
    if (!this.factory) throw new ApiError('unavailable', 'This console was started without the gateway engine, so gateways cannot run.');
    if (e.config.listen.transport === 'stdio') {
      throw new ApiError(
        'conflict',
        `Gateway "${e.id}" listens on stdio, so an MCP client launches it (see "Connect a client"). To run it inside the console, set "listen" to {"transport": "http", "port": 0}.`,
      );
    }
    this.setStatus(e, 'starting');
    const runtime = this.factory({
      id: e.id,
      config: e.config,
      recorder: this.recorder,
      logger: this.env.logger,
      onFailure: (error) => {
        if (e.runtime !== runtime) return;
        e.runtime = undefined;
        void runtime.stop().catch(() => undefined);
        this.setStatus(e, 'failed', error.message);
      },
      onChange: () => {
        if (e.runtime === runtime) this.emit({ type: 'tables.changed', tables: ['gateways'] });
      },
    });
    try {
      await runtime.start();
    } catch (err) {
      await runtime.stop().catch(() => undefined);
      const message = err instanceof Error ? err.message : String(err);
      this.setStatus(e, 'failed', message);
      throw new ApiError('failed', `Gateway "${e.id}" failed to start: ${message}`);
    }
    e.runtime = runtime;
    e.startedAt = this.env.clock.now().toISOString();
    this.setStatus(e, 'running');
  }

  private async stopNow(e: Entry): Promise<void> {
    const runtime = e.runtime;
    if (!runtime) {
      if (e.status !== 'stopped' && e.config) this.setStatus(e, 'stopped');
      return;
    }
    this.setStatus(e, 'stopping');
    e.runtime = undefined;
    try {
      await runtime.stop();
    } catch (err) {
      this.env.logger.warn(`gateway ${e.id} did not stop cleanly`, err);
    }
    e.startedAt = undefined;
    this.setStatus(e, 'stopped');
  }

  private serial<T>(e: Entry, op: () => Promise<T>): Promise<T> {
    const next = e.queue.then(op, op);
    e.queue = next.catch(() => undefined);
    return next;
  }

  private setStatus(e: Entry, status: GatewayStatus, error?: string): void {
    e.status = status;
    e.error = error;
    this.emit({ type: 'gateway.status', id: e.id, status, ...(error ? { error } : {}) });
  }

  private info(e: Entry): GatewayInfo {
    const running = e.status === 'running';
    const url = e.runtime?.url() ?? configuredUrl(e.config);
    const listen = e.config?.listen;
    return {
      id: e.id,
      name: e.config?.serverInfo?.name ?? e.config?.backend.name ?? e.id,
      status: e.status,
      ...(e.error ? { error: e.error } : {}),
      listen: {
        transport: listen?.transport ?? 'stdio',
        ...(listen?.transport === 'http' && url ? { url } : {}),
        ...(listen?.transport === 'http' ? { requiresToken: Object.keys(listen.tokens ?? {}).length > 0 } : {}),
      },
      backend: backendSummary(e.config, e.raw),
      interceptorServers: e.runtime?.serverStates?.() ?? serverStatesFromConfig(e.config, running),
      ...(running && e.runtime?.backendHealth ? { backendHealth: e.runtime.backendHealth() } : {}),
      autoStart: e.autoStart,
      demo: e.demo,
      configPath: this.configPath(e.id),
      ...(e.startedAt ? { startedAt: e.startedAt } : {}),
      ...(e.lastReload ? { lastReload: e.lastReload } : {}),
    };
  }

  private entry(id: string): Entry {
    const e = this.entries.get(id);
    if (!e) throw new ApiError('not_found', `No gateway with id "${id}".`);
    return e;
  }

  private uniqueId(base: string): string {
    if (!this.entries.has(base)) return base;
    for (let i = 2; ; i++) if (!this.entries.has(`${base}-${i}`)) return `${base}-${i}`;
  }

  private writeConfig(id: string, raw: Record<string, unknown>, text?: string): void {
    writePrivateFileAtomic(this.configPath(id), text ?? `${JSON.stringify(raw, null, 2)}\n`);
  }

  private saveRegistry(): void {
    const registry: RegistryEntry[] = [...this.entries.values()].map(({ id, autoStart, demo, createdAt }) => ({ id, autoStart, demo, createdAt }));
    writePrivateFileAtomic(join(this.dir, 'registry.json'), `${JSON.stringify(registry, null, 2)}\n`);
  }

  private emit(event: ApiEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (err) {
        this.env.logger.warn('event listener failed', err);
      }
    }
  }
}

function validate(raw: Record<string, unknown>): GatewayConfig {
  const parsed = parseGatewayConfig(raw);
  if (!parsed.ok) throw new ApiError('invalid_config', `The gateway config is invalid:\n${formatConfigErrors(parsed.errors)}`);
  return parsed.config;
}
