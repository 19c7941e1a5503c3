// The example gateway configs shipped in resources/examples, and the "localising" applied when one is
// turned into a gateway: examples say `interceptor-console serve-samples` and
// `npx -y @modelcontextprotocol/server-everything`, which need a global install or the network; the app
// runs the same programs from this installation instead.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { ExampleConfig } from '../../shared/api/models';
import type { AppEnvironment } from './environment';

export function listExamples(env: AppEnvironment): ExampleConfig[] {
  const dir = join(env.resourcesDir, 'examples');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const config = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
      return { file, name: basename(file, '.json'), description: describe(config), config };
    });
}

function describe(config: Record<string, unknown>): string {
  const backend = (config.backend ?? {}) as Record<string, unknown>;
  const listen = (config.listen ?? { transport: 'stdio' }) as Record<string, unknown>;
  const servers = Array.isArray(config.staticInterceptors) ? config.staticInterceptors.length : 0;
  const where = listen.transport === 'http' ? `HTTP :${String(listen.port)}` : 'stdio';
  return `${String(backend.name ?? 'backend')} over ${String(backend.transport ?? '?')}, ${servers} interceptor server${servers === 1 ? '' : 's'}, listens on ${where}`;
}

/** Path of server-everything's entry in this installation, if present. */
export function serverEverythingEntry(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
    const entry = join(pkg, '..', 'dist', 'index.js');
    return existsSync(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Shipped examples carry placeholder bearer tokens ("change-me-…"), printed in the README: a gateway made
 * from one must not accept them. Each is replaced by a fresh random token for the same principal (the
 * Connect dialog shows it). Other tokens are the user's own choice and stay.
 */
function freshListenerTokens(listen: unknown): { listen?: unknown } {
  if (!listen || typeof listen !== 'object') return {};
  const tokens = (listen as { tokens?: unknown }).tokens;
  if (!tokens || typeof tokens !== 'object' || Array.isArray(tokens)) return {};
  const next = Object.fromEntries(
    Object.entries(tokens as Record<string, unknown>).map(([token, principal]) => [
      isPlaceholderToken(token) ? randomBytes(18).toString('base64url') : token,
      principal,
    ]),
  );
  return { listen: { ...listen, tokens: next } };
}

export function isPlaceholderToken(token: string): boolean {
  return token.toLowerCase().startsWith('change-me');
}

/** Rewrites commands that name this CLI or server-everything to run from this installation, and replaces placeholder tokens. */
export function localizeConfig(raw: Record<string, unknown>, env: AppEnvironment): Record<string, unknown> {
  const everything = serverEverythingEntry();
  const fix = (entry: unknown): unknown => {
    if (!entry || typeof entry !== 'object') return entry;
    const e = { ...(entry as Record<string, unknown>) };
    if (e.transport !== 'stdio') return e;
    const args = Array.isArray(e.arguments) ? (e.arguments as string[]) : [];
    if (e.command === 'interceptor-console') {
      e.command = env.cli.command;
      e.arguments = [...env.cli.args, ...args];
      if (env.cli.env) e.env = { ...env.cli.env, ...((e.env as Record<string, string>) ?? {}) };
    } else if (e.command === 'npx' && everything && args.some((a) => a.startsWith('@modelcontextprotocol/server-everything'))) {
      e.command = env.cli.command;
      e.arguments = [everything, ...args.filter((a) => a !== '-y' && !a.startsWith('@modelcontextprotocol/server-everything'))];
      if (env.cli.env) e.env = { ...env.cli.env, ...((e.env as Record<string, string>) ?? {}) };
    }
    return e;
  };
  const out: Record<string, unknown> = { ...raw, backend: fix(raw.backend), ...freshListenerTokens(raw.listen) };
  delete out.$schema;
  if (Array.isArray(raw.staticInterceptors)) out.staticInterceptors = raw.staticInterceptors.map(fix);
  if (raw.dynamicInterceptors && typeof raw.dynamicInterceptors === 'object') {
    out.dynamicInterceptors = Object.fromEntries(
      Object.entries(raw.dynamicInterceptors as Record<string, unknown[]>).map(([k, v]) => [k, Array.isArray(v) ? v.map(fix) : v]),
    );
  }
  return out;
}
