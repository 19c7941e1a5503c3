// deploy/ cannot run here (no Docker), so what can be checked without Docker is checked: the compose file
// parses (anchors and merge keys resolved, `${VAR}` interpolated as compose does), every gateway config it
// mounts passes the project's config schema, each gateway's command uses options the CLI has, the
// environment it sets is what the CLI reads (and means what the CLI makes of it), and the ports, paths and
// service names that the files name in each other agree.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseGatewayConfigText, type GatewayConfig } from '../../src/shared/config';
import { gatewayCommand } from '../../src/main/cli/commands/gateway';
import { DB_ENV_VAR } from '../../src/main/history/sqlite';
import { HOST_ENV_VAR } from '../../src/main/gateway/record/open-history';
import { isPostgresUrl } from '../../src/main/history/postgres';
import { resolveTelemetryOptions } from '../../src/main/telemetry/options';

const root = fileURLToPath(new URL('../../', import.meta.url));
const deploy = join(root, 'deploy');
const PASSWORD = 'pw-from-the-shell';

/** Compose's interpolation: ${VAR}, ${VAR:?message} (required), ${VAR:-default}. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (op === '?') throw new Error(`${name} is required: ${arg}`);
    return op === '-' ? (arg ?? '') : '';
  });
}

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: unknown;
}

const composeText = readFileSync(join(deploy, 'docker-compose.yml'), 'utf8');
const compose = parse(interpolate(composeText, { IC_DB_PASSWORD: PASSWORD }), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const gateways = Object.entries(services).filter(([, s]) => s.command?.[0] === 'gateway');
const option = (s: Service, name: string) => s.command![s.command!.indexOf(name) + 1];

/** Every environment variable the CLI's gateway reads: the constants, and every OTEL_* name the telemetry options read. */
function variablesTheCliReads(): Set<string> {
  const telemetry = readFileSync(join(root, 'src/main/telemetry/options.ts'), 'utf8');
  return new Set([DB_ENV_VAR, HOST_ENV_VAR, 'PGPASSWORD', ...(telemetry.match(/OTEL_[A-Z_]+/g) ?? [])]);
}

describe('deploy/docker-compose.yml', () => {
  it('refuses to start without the database password, as its header says', () => {
    expect(() => interpolate(composeText, {})).toThrow(/IC_DB_PASSWORD is required/);
  });

  it('runs three gateways, each with its own id and host, built from deploy/Dockerfile', () => {
    expect(gateways.map(([name]) => name).sort()).toEqual(['gateway-ap', 'gateway-eu', 'gateway-us']);
    const ids = gateways.map(([, s]) => option(s, '--gateway-id'));
    const hosts = gateways.map(([, s]) => s.environment?.[HOST_ENV_VAR]);
    expect(new Set(ids).size).toBe(3);
    expect(new Set(hosts).size).toBe(3);
    for (const [, s] of gateways) {
      expect(s.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
      expect(existsSync(resolve(deploy, s.build!.context, s.build!.dockerfile))).toBe(true);
    }
  });

  it('mounts gateway configs that pass the config schema and agree with the published ports', () => {
    for (const [name, s] of gateways) {
      const configPath = option(s, '--config')!;
      const mount = (s.volumes ?? []).map((v) => v.split(':')).find(([, target]) => target === configPath);
      expect(mount, `${name} mounts ${configPath}`).toBeDefined();
      const source = resolve(deploy, mount![0]!);
      const parsed = parseGatewayConfigText(readFileSync(source, 'utf8'));
      expect(parsed.ok ? [] : parsed.errors, `${name}: ${source}`).toEqual([]);
      const config = (parsed as { config: GatewayConfig }).config;
      // Published on the host's loopback only, to the port the config listens on inside the container.
      expect(config.listen.transport).toBe('http');
      const listen = config.listen as { port?: number; host?: string };
      for (const p of s.ports ?? []) expect(p).toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+:${listen.port}$`));
      expect(listen.host).toBe('0.0.0.0'); // inside the container: reachable through the published port
    }
  });

  it('uses only gateway options the CLI has', () => {
    for (const [name, s] of gateways) {
      const flags = s.command!.filter((a) => a.startsWith('--'));
      for (const flag of flags) expect(gatewayCommand.usage, `${name}: ${flag}`).toContain(flag);
    }
  });

  it('sets only environment variables the CLI reads, meaning what the CLI makes of them', () => {
    const known = variablesTheCliReads();
    for (const [name, s] of gateways) {
      const env = s.environment ?? {};
      for (const key of Object.keys(env)) expect(known, `${name}: ${key}`).toContain(key);
      // The shared history: a PostgreSQL URL on the postgres service, its user, database and the password given.
      const db = new URL(env[DB_ENV_VAR]!);
      expect(isPostgresUrl(env[DB_ENV_VAR])).toBe(true);
      const pgEnv = services.postgres!.environment!;
      expect([db.hostname, db.port, db.username, db.pathname.slice(1), decodeURIComponent(db.password)]).toEqual([
        'postgres',
        '5432',
        pgEnv.POSTGRES_USER,
        pgEnv.POSTGRES_DB,
        PASSWORD,
      ]);
      // OTLP export on, to the collector service's OTLP/HTTP port, under the service name set.
      const telemetry = resolveTelemetryOptions(undefined, env, '0.0.0');
      expect(telemetry?.endpoint).toMatch(/^http:\/\/otel-collector:4318\/?$/);
      expect(telemetry?.serviceName).toBe(env.OTEL_SERVICE_NAME);
    }
  });

  it('wires the collector to the ports the gateways and Jaeger use, and the image runs the built CLI', () => {
    const collector = parse(readFileSync(join(deploy, 'otel-collector.yaml'), 'utf8')) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { endpoint: string }>;
      service: { pipelines: Record<string, { receivers: string[]; exporters: string[] }> };
    };
    expect(collector.receivers.otlp.protocols.http.endpoint).toMatch(/:4318$/);
    expect(collector.exporters['otlp/jaeger']?.endpoint).toBe('jaeger:4317');
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['jaeger', 'otel-collector', 'postgres']));
    for (const p of Object.values(collector.service.pipelines)) {
      for (const e of p.exporters) expect(Object.keys(collector.exporters)).toContain(e);
    }
    const mount = services['otel-collector']!.volumes![0]!.split(':');
    expect(services['otel-collector']!.command).toEqual([`--config=${mount[1]}`]);
    // The Dockerfile builds the CLI bundle its ENTRYPOINT runs, and the gateway config's commands name
    // files that exist in the image (/app is this checkout, built).
    const dockerfile = readFileSync(join(deploy, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/RUN npm run build:cli/);
    expect(dockerfile).toContain('ENTRYPOINT ["node", "/app/out/cli/index.js"]');
    const gatewayJson = readFileSync(join(deploy, 'gateway.json'), 'utf8');
    for (const path of gatewayJson.match(/\/app\/[\w@./-]+/g) ?? []) {
      const inCheckout = path.replace('/app/', '');
      if (inCheckout.startsWith('out/')) expect(inCheckout).toBe('out/cli/index.js');
      else expect(existsSync(join(root, inCheckout)), path).toBe(true);
    }
  });
});
