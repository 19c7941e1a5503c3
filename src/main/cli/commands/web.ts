// `interceptor-console web`: the console in a browser. Serves the built renderer and the app API on
// 127.0.0.1 with a per-run token, runs the gateways in this process, and prints the URL to open.
import { parseArgs } from 'node:util';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { defaultDataDir, findPackageRoot } from '../../services/environment';
import { bootstrapCore } from '../../services/bootstrap';
import { startWebServer } from '../../web/server';
import { rendererBuilt } from '../../web/static-files';

const usage = `Usage: interceptor-console web [--port P] [--data-dir D] [--db FILE] [--no-demo]

Serves the console in a browser on http://127.0.0.1 and prints the URL to open
(it carries this run's access token).

Options:
  --port P       port to listen on (default: a free port)
  --data-dir D   data folder: gateway configs, settings, history
                 (default: $INTERCEPTOR_CONSOLE_DATA or the per-user app data folder)
  --db FILE      history database (default: $INTERCEPTOR_CONSOLE_DB or <data-dir>/history.db)
  --no-demo      do not create the demo gateway on first start`;

export const webCommand: CliCommand = {
  name: 'web',
  summary: 'Serve the console in a browser (web mode)',
  usage,
  async run(argv) {
    let values: { port?: string; 'data-dir'?: string; db?: string; 'no-demo'?: boolean };
    try {
      ({ values } = parseArgs({
        args: argv,
        options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, db: { type: 'string' }, 'no-demo': { type: 'boolean' } },
        strict: true,
        allowPositionals: false,
      }));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer between 0 and 65535, got "${values.port}"`);

    const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
    const rendererDir = join(packageRoot, 'out', 'renderer');
    if (!rendererBuilt(rendererDir)) throw new CliFailure(`The console UI is not built (${rendererDir} is missing): run \`npm run build\` first.`);

    const core = await bootstrapCore({ mode: 'web', packageRoot, dataDir: values['data-dir'] ?? defaultDataDir(), dbPath: values.db });
    let server;
    try {
      server = await startWebServer({ core, rendererDir, logger: core.env.logger, port });
    } catch (err) {
      await core.shutdown();
      throw new CliFailure(`Could not listen on 127.0.0.1:${port}: ${(err as Error).message}`);
    }
    // Print the URL before gateways start: the page is usable at once and shows their progress.
    console.log(`Interceptor Console (web mode): ${server.openUrl}`);
    console.log(`Data folder: ${core.env.dataDir}`);

    const stopped = new Promise<number>((resolve) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        core.env.logger.info(`${signal}: stopping gateways and closing`);
        void Promise.allSettled([server.close(), core.shutdown()]).then(() => resolve(0));
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    core.start({ demo: values['no-demo'] ? false : undefined }).catch((err: unknown) => core.env.logger.error('starting gateways failed', err));
    return stopped;
  },
};
