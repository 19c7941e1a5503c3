// `interceptor-console serve-samples`: the sample interceptor server over stdio (default) or HTTP.
import { isLoopbackAddress } from '../../../shared/config/listen-exposure';
import { serveHostOverHttp } from '../../interceptors/host/serve-http';
import { serveHostOverStdio } from '../../interceptors/host/serve-stdio';
import { createSampleHost } from '../../interceptors/samples/index';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlags } from '../flags';

const usage = `Usage: interceptor-console serve-samples [--http <port>] [--host <addr>] [--token <token>] [--allowed-host <name>…]
                                           [--allowed-origin <url>…] [--allow-remote-without-token]

Serves the sample interceptors (pii-validator, email-redactor, request-logger, secretless-redactor,
cross-boundary-guard, tool-allowlist, prompt-injection-heuristic).

Without --http it speaks MCP over stdio: stdout carries only JSON-RPC, logs go to stderr.
With --http it serves Streamable HTTP at http://<host>:<port>/mcp and prints the URL on stderr.

Options:
  --http <port>            serve over HTTP on this port (0 picks a free one)
  --host <addr>            interface to bind (default 127.0.0.1; others expose the server and need
                           --token, or --allow-remote-without-token)
  --token <token>          require "Authorization: Bearer <token>" on every HTTP request
  --allowed-host <name>    extra host name accepted in the Host header (repeatable)
  --allowed-origin <url>   extra browser origin allowed to call, e.g. http://localhost:6274
                           (repeatable; a page's Origin must otherwise be this server's own)
  --page-size <n>          page interceptors/list results (nextCursor) by n`;

export const serveSamplesCommand: CliCommand = {
  name: 'serve-samples',
  summary: 'Serve the sample interceptors over stdio or Streamable HTTP',
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, {
      http: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'allow-remote-without-token': { type: 'boolean' },
      'allowed-origin': { type: 'string', multiple: true },
      'page-size': { type: 'string' },
    });
    let pageSize: number | undefined;
    if (values['page-size'] !== undefined) {
      pageSize = Number(values['page-size']);
      if (!Number.isInteger(pageSize) || pageSize <= 0) throw new UsageError(`--page-size must be a positive integer, got "${values['page-size']}"`);
    }
    // Large payloads of the stateless samples run on worker threads: one client's 4 MB call neither
    // delays the others nor keeps running after it was cancelled or timed out.
    const host = createSampleHost({ pageSize, workers: true });

    if (values.http === undefined) {
      if (
        values.host !== undefined ||
        values.token !== undefined ||
        values['allowed-host'] ||
        values['allowed-origin'] ||
        values['allow-remote-without-token']
      ) {
        throw new UsageError('--host, --token, --allowed-host, --allowed-origin and --allow-remote-without-token need --http <port>');
      }
      const serving = await serveHostOverStdio(host);
      const stop = (): void => void serving.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      // Closed stdin means the gateway that started us is gone (even SIGKILLed): stop all work and exit.
      await serving.closed;
      await host.close();
      // Whatever is still pending (a handler's deadline timer) must not keep an orphan alive.
      setTimeout(() => process.exit(0), 1_000).unref();
      return 0;
    }

    const port = Number(values.http);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http must be a port number 0-65535, got "${values.http}"`);
    const bind = values.host ?? '127.0.0.1';
    // As for a gateway's listener (listen-exposure.ts): beyond loopback, every machine that reaches the port
    // could invoke the interceptors (and read what they are sent), so that needs a token or an explicit opt-in.
    if (!isLoopbackAddress(bind) && values.token === undefined && values['allow-remote-without-token'] !== true) {
      throw new UsageError(
        `refusing to serve on ${bind} without --token: other machines can reach it. Pass --token <token>, bind 127.0.0.1, or, if every machine that reaches it may use it, --allow-remote-without-token`,
      );
    }
    let serving;
    try {
      serving = await serveHostOverHttp(host, {
        port,
        host: bind,
        token: values.token,
        allowedHostnames: values['allowed-host'],
        allowedOrigins: values['allowed-origin'],
      });
    } catch (err) {
      throw new CliFailure(`cannot listen on ${bind}:${port}: ${(err as Error).message}\n  → pick another --http port (0 picks a free one)`);
    }
    if (!isLoopbackAddress(bind)) {
      console.error(`warning: bound to ${bind}, reachable from other machines${values.token ? '' : ' and without --token'}`);
    }
    console.error(`serve-samples: listening on ${serving.url}${values.token ? ' (bearer token required)' : ''}`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await serving.close();
    await host.close();
    console.error('serve-samples: stopped');
    return 0;
  },
};
