// `interceptor-console web`: the console in a browser. Serves the built renderer and the app API on
// 127.0.0.1 with a per-run token, runs the gateways in this process, and prints the URL to open.
// The URL is printed before the core (gateways, store, MCP SDKs) is loaded: this file imports only the
// HTTP side statically, so the fast entry (out/cli/web.js, used by `npm start`) is ready at once and
// API calls made meanwhile simply wait for the core.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlags } from '../flags';
import { dbOption, withDbPassword } from './history-db';
import { defaultDataDir, findPackageRoot, stderrLogger } from '../../services/environment';
import type { AppCore } from '../../services/app-core';
import type { ApiEvent } from '../../../shared/api/events';
import { startWebServer, type WebCore } from '../../web/server';
import { rendererBuilt } from '../../web/static-files';

const usage = `Usage: interceptor-console web [--port P] [--data-dir D] [--db FILE|URL] [--db-password-file F] [--no-demo]

Serves the console in a browser on http://127.0.0.1 and prints the URL to open
(it carries this run's access token).

Options:
  --port P       port to listen on (default: a free port)
  --data-dir D   data folder: gateway configs, settings, history
                 (default: $INTERCEPTOR_CONSOLE_DATA or the per-user app data folder)
  --db FILE|URL  history database: a file, or postgres://… for a shared PostgreSQL
                 (default: $INTERCEPTOR_CONSOLE_DB, the history chosen in Settings,
                 or <data-dir>/history.db)
  --db-password-file F
                 its password, from this file's first line (the URL then needs none)
  --no-demo      do not create the demo gateway on first start`;

export const webCommand: CliCommand = {
  name: 'web',
  summary: 'Serve the console in a browser (web mode)',
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, { port: { type: 'string' }, 'data-dir': { type: 'string' }, ...dbOption, 'no-demo': { type: 'boolean' } });
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer between 0 and 65535, got "${values.port}"`);

    const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
    const rendererDir = join(packageRoot, 'out', 'renderer');
    if (!rendererBuilt(rendererDir)) throw new CliFailure(`The console UI is not built (${rendererDir} is missing): run \`npm run build\` first.`);
    const logger = stderrLogger();
    const dataDir = values['data-dir'] ?? defaultDataDir();
    const dbPath = withDbPassword(values.db, values['db-password-file']);

    // The core is loaded only once the URL is out: loading it (parsing the MCP SDKs and the store) would
    // otherwise hold up the listen callback on this one thread.
    let load!: (core: Promise<AppCore>) => void;
    const loading = new Promise<AppCore>((resolve) => (load = resolve));
    let server;
    try {
      server = await startWebServer({ core: lazyCore(loading), rendererDir, logger, port });
    } catch (err) {
      throw new CliFailure(`Could not listen on 127.0.0.1:${port}: ${(err as Error).message}`);
    }
    console.log(`Interceptor Console (web mode): ${server.openUrl}`);
    console.log(`Data folder: ${dataDir}`);
    load(import('../../services/bootstrap').then((m) => m.bootstrapCore({ mode: 'web', packageRoot, dataDir, dbPath, logger })));

    let core: AppCore;
    try {
      core = await loading;
    } catch (err) {
      await server.close();
      throw new CliFailure(`The console core failed to start: ${(err as Error).message}`);
    }
    const stopped = new Promise<number>((resolve) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info(`${signal}: stopping gateways and closing`);
        void Promise.allSettled([server.close(), core.shutdown()]).then(() => resolve(0));
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    core.start({ demo: values['no-demo'] ? false : undefined }).catch((err: unknown) => logger.error('starting gateways failed', err));
    return stopped;
  },
};

/** The web server's view of a core that is still loading: calls and subscriptions wait for it. */
function lazyCore(loading: Promise<AppCore>): WebCore {
  return {
    dispatcher: {
      async dispatch(name, input) {
        try {
          return await (await loading).dispatcher.dispatch(name, input);
        } catch (err) {
          return { ok: false, error: { code: 'unavailable', message: `The console core failed to start: ${(err as Error).message}` } };
        }
      },
    },
    onEvent(listener: (event: ApiEvent) => void) {
      let unsubscribe: (() => void) | undefined;
      let closed = false;
      loading.then(
        (core) => {
          if (!closed) unsubscribe = core.onEvent(listener);
        },
        () => undefined,
      );
      return () => {
        closed = true;
        unsubscribe?.();
      };
    },
  };
}
