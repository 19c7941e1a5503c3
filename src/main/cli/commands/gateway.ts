// `interceptor-console gateway --config f.json [--db path]`: one gateway, no UI. This is what an MCP client's
// config launches (stdio listener: stdout carries only JSON-RPC, every log line goes to stderr) or what
// runs on a server (HTTP listener). SIGINT/SIGTERM, or the stdio client closing stdin, stop it cleanly:
// backend and interceptor-server children are killed before the process exits.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatConfigErrors, parseBreakSpec, parseGatewayConfigText, recordingEnabled, type Breakpoint, type GatewayConfig } from '../../../shared/config';
import { attachBreakPrompt } from '../break-prompt';
import type { Recorder } from '../../../shared/trace/execution';
import { Gateway } from '../../gateway';
import { openGatewayHistory } from '../../gateway/record/open-history';
import { RedactionSettingsError, savedRedactor } from '../../services/saved-redaction';
import { defaultDataDir } from '../../history/model/data-dir';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlags } from '../flags';
import { dbOption, withDbPassword } from './history-db';
import { watchGatewayConfig } from '../config-watch';
import { findPackageRoot } from '../../services/environment';
import { resolveTelemetryOptions } from '../../telemetry/options';
import type { OtelTelemetry } from '../../telemetry/otel-telemetry';

const usage = `Usage: interceptor-console gateway --config FILE [--listen stdio] [--gateway-id ID] [--db FILE|URL] [--db-password-file FILE] [--data-dir D] [--no-record] [--no-journal]
                                  [--no-watch] [--quiet] [--otlp-endpoint URL] [--break METHOD[:TARGET]]...

Runs one gateway from a config file (see resources/gateway-config.schema.json and
resources/examples/). With a stdio listener the gateway speaks MCP on stdin/stdout,
so an MCP client can launch it directly; logs go to stderr.

Options:
  --config FILE   the gateway config (JSON)
  --listen stdio  listen on stdio whatever the config's "listen" says (how a
                  client launches, on the very file the console saves, a
                  gateway that the console runs over HTTP)
  --gateway-id ID the name its executions are recorded under (default: the
                  config's serverInfo.name, then the backend's name); the
                  console's "Connect a client" snippets pass the gateway's id,
                  so calls land under the same gateway as in the console
  --db FILE|URL   history database for recorded executions: a file, or
                  postgres://USER:PASSWORD@HOST:PORT/DB to record into a PostgreSQL
                  shared by many gateways ($INTERCEPTOR_CONSOLE_HOST names this host
                  in it; default: $INTERCEPTOR_CONSOLE_DB or the data folder's history.db)
  --db-password-file FILE
                  the PostgreSQL password, read from this file's first line (keep it
                  0600), so that the URL on the command line needs none; without it a
                  URL without password uses $PGPASSWORD
  --data-dir D    the console's data folder: its settings' redaction at rest
                  (Settings > History: redacted paths) applies to what this
                  gateway records, and its crash journals live there (default:
                  $INTERCEPTOR_CONSOLE_DATA, else the app's data folder); the
                  "Connect a client" snippets pass the console's
  --no-record     record nothing (same as "recording": false in the config)
  --no-journal    record without the crash journal (records not yet written to the
                  database are lost if the process is killed; for measurements)
  --no-watch      do not hot-reload the config file when it changes
  --quiet         log only errors and security warnings
  --otlp-endpoint URL
                  export OpenTelemetry traces and metrics over OTLP/HTTP to this
                  collector base URL (e.g. http://127.0.0.1:4318); default:
                  $OTEL_EXPORTER_OTLP_ENDPOINT, unset = no export
  --break METHOD[:TARGET]
                  pause matching calls before the chain and decide on the
                  terminal: continue, edit in $EDITOR, block, answer, step
                  (repeatable; e.g. --break tools/call:echo --break 'tools/*').
                  Needs an HTTP listener (stdin carries the answers)`;

export const gatewayCommand: CliCommand = {
  name: 'gateway',
  summary: 'Run one gateway from a config file, without the UI',
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, {
      config: { type: 'string' },
      listen: { type: 'string' },
      'gateway-id': { type: 'string' },
      ...dbOption,
      'data-dir': { type: 'string' },
      'no-record': { type: 'boolean' },
      'no-journal': { type: 'boolean' },
      'no-watch': { type: 'boolean' },
      quiet: { type: 'boolean' },
      'otlp-endpoint': { type: 'string' },
      break: { type: 'string', multiple: true },
    });
    if (!values.config) throw new UsageError('--config is required');
    const path = resolve(values.config);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read the config file ${path}: ${(err as Error).message}`);
    }
    if (values.listen !== undefined && values.listen !== 'stdio')
      throw new UsageError(`--listen takes only "stdio" (got "${values.listen}"); set an HTTP listener in the config file`);
    // Applied to the file as read now and on every hot reload, so the file itself never needs a stdio copy.
    const adjust = (c: GatewayConfig): GatewayConfig => (values.listen === 'stdio' ? { ...c, listen: { transport: 'stdio' } } : c);
    const parsed = parseGatewayConfigText(text);
    if (!parsed.ok) {
      process.stderr.write(`error: invalid gateway config ${path}:\n${indent(formatConfigErrors(parsed.errors))}\n`);
      return 2;
    }
    let breaks: Breakpoint[] = [];
    try {
      breaks = (values.break ?? []).map((spec) => parseBreakSpec(spec));
    } catch (err) {
      throw new UsageError(`--break: ${(err as Error).message}`);
    }
    const config = adjust(parsed.config);
    // stdin carries JSON-RPC on a stdio listener: the terminal prompt would steal the client's messages.
    if (breaks.length > 0 && config.listen.transport === 'stdio') {
      throw new UsageError(
        '--break reads its answers from stdin, which a stdio listener uses for MCP; give the config an HTTP listener, or set "control" and decide from a console',
      );
    }
    const quiet = values.quiet === true;
    const log = (line: string) => {
      // --quiet keeps security warnings (an open bind without a token): they are what must not go unseen.
      if (!quiet || line.startsWith('warning:')) process.stderr.write(`[gateway] ${line}\n`);
    };

    let recorder: Recorder | null = null;
    if (recordingEnabled(config) && !values['no-record']) {
      try {
        const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();
        // Throws RedactionSettingsError when the saved redaction cannot be applied: recording without it
        // would store what the user asked never to store.
        const redactor = savedRedactor(dataDir);
        recorder = await openGatewayHistory(withDbPassword(values.db, values['db-password-file']), log, {
          journal: !values['no-journal'],
          dataDir,
          ...(redactor ? { redactor } : {}),
        });
      } catch (err) {
        if (err instanceof UsageError) throw err;
        if (err instanceof RedactionSettingsError) throw new CliFailure(`${err.message}, or run with --no-record; nothing was recorded`);
        throw new CliFailure(`cannot open the history database: ${(err as Error).message} (use --db FILE or --db postgres://…, or --no-record)`);
      }
    }

    let telemetry: OtelTelemetry | undefined;
    try {
      telemetry = await openTelemetry(values['otlp-endpoint'], log);
    } catch (err) {
      await recorder?.close().catch(() => undefined);
      throw new UsageError((err as Error).message);
    }

    if (values['gateway-id'] !== undefined && values['gateway-id'].trim() === '') throw new UsageError('--gateway-id needs a non-empty id');
    const gateway = new Gateway(config, {
      recorder,
      log,
      ...(telemetry ? { telemetry } : {}),
      ...(values['gateway-id'] ? { name: values['gateway-id'] } : {}),
    });
    try {
      await gateway.start();
    } catch (err) {
      await gateway.stop().catch(() => undefined);
      await recorder?.close().catch(() => undefined);
      await telemetry?.shutdown();
      throw new CliFailure((err as Error).message);
    }
    if (config.listen.transport === 'http') process.stderr.write(`gateway "${gateway.gatewayName}" listening on ${gateway.url}\n`);
    else log(`gateway "${gateway.gatewayName}" running on stdio (backend pid ${gateway.stdioSession?.backendPid ?? '?'})`);
    const detachPrompt =
      breaks.length > 0
        ? (gateway.breakpoints.setLive(breaks),
          attachBreakPrompt(gateway.breakpoints, { input: process.stdin, output: process.stderr, editor: process.env.VISUAL || process.env.EDITOR || 'vi' }))
        : () => undefined;
    // Saving the file (e.g. from the Chain screen) hot-reloads this gateway.
    const unwatch = values['no-watch'] ? () => undefined : watchGatewayConfig(path, gateway, text, log, adjust);

    return new Promise<number>((done) => {
      let stopping = false;
      const stop = (why: string, code = 0) => {
        if (stopping) return;
        stopping = true;
        log(`stopping (${why})`);
        unwatch();
        detachPrompt();
        void (async () => {
          await gateway.stop().catch((err: unknown) => log(`error while stopping: ${(err as Error).message}`));
          await recorder?.close().catch((err: unknown) => log(`error while closing the history database: ${(err as Error).message}`));
          await telemetry?.shutdown();
          process.off('SIGINT', onSigint);
          process.off('SIGTERM', onSigterm);
          // stdin keeps the event loop alive once read; the gateway no longer needs it.
          if (config.listen.transport === 'stdio' || breaks.length > 0) process.stdin.destroy();
          done(code);
        })();
      };
      const onSigint = () => stop('SIGINT');
      const onSigterm = () => stop('SIGTERM');
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', onSigterm);
      gateway.on('client-gone', () => stop('the stdio client closed its input'));
      gateway.on('state', (state) => {
        if (state !== 'failed') return;
        process.stderr.write(`error: ${gateway.status().error ?? 'the gateway failed'}\n`);
        stop('failed', 1);
      });
    });
  },
};

/** The exporter, loaded only when an endpoint is set: without one no OpenTelemetry code is even imported. */
async function openTelemetry(flag: string | undefined, log: (line: string) => void): Promise<OtelTelemetry | undefined> {
  const options = resolveTelemetryOptions(flag, process.env, packageVersion());
  if (!options) return undefined;
  const { OtelTelemetry } = await import('../../telemetry/otel-telemetry');
  return new OtelTelemetry(options, log);
}

function packageVersion(): string {
  try {
    const root = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
