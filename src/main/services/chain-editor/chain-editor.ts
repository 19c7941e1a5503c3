// The Chain screen's service: the config document (loaded and saved as text, byte for byte), discovery of
// every interceptor server of a draft, the engine's override validation (hook widening), and the
// wizard's connection probes. Ordering is NOT here: `chain.order` runs the chain engine's ordering
// function over the same pool connections, so the canvas shows exactly what the engine will run.
import { readFileSync } from 'node:fs';
import { ApiError } from '../../../shared/api/envelope';
import type { ChainDiscovery, ChainSaveResult, OverrideIssue, ServerDiscovery } from '../../../shared/api/models-chain';
import { formatConfigErrors, formatPath, parseGatewayConfig, parseGatewayConfigText, type GatewayConfig } from '../../../shared/config';
import type { InterceptorDescriptor } from '../../../shared/protocol/schemas';
import { configErrors, validateOverrides, type DiscoveredInterceptor } from '../../interceptors/chain';
import type { AppEnvironment } from '../environment';
import type { GatewayManager } from '../gateway-manager';
import { configuredServers, endpointTarget } from '../gateway-summary';
import type { ServerPoolPort } from '../ports';
import { ReloadLog } from './reload-log';

/** A draft config (the Chain screen's, a Tests run's), validated with the gateway config schema (errors name JSON paths). */
export function parseDraftConfig(raw: unknown): GatewayConfig {
  const parsed = parseGatewayConfig(raw);
  if (!parsed.ok) throw new ApiError('invalid_config', `The config is invalid:\n${formatConfigErrors(parsed.errors)}`);
  return parsed.config;
}

export class ChainEditor {
  readonly reloads: ReloadLog;

  constructor(
    private readonly env: AppEnvironment,
    private readonly manager: GatewayManager,
    private readonly pool: () => ServerPoolPort,
  ) {
    this.reloads = new ReloadLog(env.dataDir, env.logger);
    manager.onEvent((event) => {
      if (event.type === 'gateway.reloaded') this.reloads.append(event.id, { at: event.at, restarted: event.restarted });
    });
  }

  /** A draft config from the UI, validated with the gateway config schema (errors name JSON paths). */
  parseDraft(raw: unknown): GatewayConfig {
    return parseDraftConfig(raw);
  }

  configFor(id: string, raw?: unknown): GatewayConfig {
    return raw === undefined ? this.manager.config(id) : this.parseDraft(raw);
  }

  load(id: string) {
    const info = this.manager.get(id);
    const path = this.manager.configPath(id);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new ApiError('failed', `Could not read the config file ${path}: ${(err as Error).message}`);
    }
    return { text, configPath: path, info: withoutConfig(info) };
  }

  /** Every configured server, discovered in parallel through the pool; a failure is reported in place. */
  async discover(id: string, config: GatewayConfig, refresh = false): Promise<ChainDiscovery> {
    const principals = new Map<string, string[]>();
    for (const [principal, entries] of Object.entries(config.dynamicInterceptors)) {
      for (const e of entries) principals.set(e.name, [...(principals.get(e.name) ?? []), principal]);
    }
    const statics = new Set(config.staticInterceptors.map((e) => e.name));
    const servers = await Promise.all(
      configuredServers(config).map(async (entry): Promise<ServerDiscovery> => {
        const base = {
          name: entry.name,
          transport: entry.transport,
          target: endpointTarget(entry),
          failOpen: entry.failOpen === true,
          ...(!statics.has(entry.name) ? { principals: principals.get(entry.name) ?? [] } : {}),
        };
        const t0 = performance.now();
        try {
          const r = await this.pool().discover(id, config, entry.name, refresh);
          const listed = r.interceptors.map((d, listIndex) => ({
            server: entry.name,
            serverIndex: 0,
            listIndex,
            descriptor: d as unknown as InterceptorDescriptor,
          }));
          const problems = configErrors(listed, config.overrides).map((e) => ({ interceptor: e.interceptor, message: e.message }));
          return {
            ...base,
            ok: true,
            interceptors: r.interceptors,
            skipped: r.skipped,
            ...(problems.length ? { configErrors: problems } : {}),
            durationMs: r.durationMs,
          };
        } catch (err) {
          return { ...base, ok: false, error: (err as Error).message, interceptors: [], skipped: [], durationMs: performance.now() - t0 };
        }
      }),
    );
    return { servers };
  }

  /**
   * The chain engine's validateOverrides on a draft: widening hooks is an error (with its path); an override
   * naming an interceptor that no reachable server lists is a warning. Servers that failed discovery are
   * not judged: their interceptors are unknown, not absent.
   */
  async checkOverrides(id: string, config: GatewayConfig): Promise<OverrideIssue[]> {
    const { servers } = await this.discover(id, config);
    const discovered: DiscoveredInterceptor[] = [];
    servers.forEach((s, serverIndex) =>
      s.interceptors.forEach((d, listIndex) => discovered.push({ server: s.name, serverIndex, listIndex, descriptor: d as unknown as InterceptorDescriptor })),
    );
    const unreachable = new Set(servers.filter((s) => !s.ok).map((s) => s.name));
    return validateOverrides(config.overrides, discovered)
      .filter((i) => !(i.kind === 'unknown-interceptor' && unreachable.has(i.key.split('/')[0]!)))
      .map((i) => ({ ...i, configPath: `${formatPath(['overrides', i.key])}${i.path ? (i.path.startsWith('[') ? i.path : `.${i.path}`) : ''}` }));
  }

  /**
   * Saves the JSON tab's text as the config file, byte for byte (a trailing newline is added when missing,
   * and the returned text says so). Invalid text or a widening override saves nothing.
   */
  async save(id: string, text: string): Promise<ChainSaveResult> {
    const parsed = parseGatewayConfigText(text);
    if (!parsed.ok) throw new ApiError('invalid_config', `Nothing was saved: the config is invalid:\n${formatConfigErrors(parsed.errors)}`);
    const issues = await this.checkOverrides(id, parsed.config);
    const errors = issues.filter((i) => i.severity === 'error');
    if (errors.length > 0) {
      throw new ApiError('invalid_config', `Nothing was saved: ${errors.map((e) => `${e.configPath}: ${e.message}`).join('\n')}`);
    }
    const finalText = text.endsWith('\n') ? text : `${text}\n`;
    const before = this.manager.get(id).lastReload;
    const info = await this.manager.update(id, JSON.parse(text) as Record<string, unknown>, { text: finalText });
    const reload = info.lastReload && info.lastReload !== before ? info.lastReload : null;
    return { text: finalText, configPath: this.manager.configPath(id), info, reload, warnings: issues.filter((i) => i.severity === 'warning') };
  }
}

function withoutConfig<T extends { config: unknown }>(info: T): Omit<T, 'config'> {
  const copy: Partial<T> = { ...info };
  delete copy.config;
  return copy as Omit<T, 'config'>;
}
