// `interceptor-console invoke`: one interceptor/invoke against one server, printing the result JSON.
import { InvokeError } from '../../interceptors/server-handle';
import { InvocationContextSchema, type InvokeParams } from '../../../shared/protocol/schemas';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlags } from '../flags';
import { connectionFromFlags, connectTimeoutFromFlags, serverTargetOptions, serverTargetUsage, withServerClient } from '../server-target';

const usage = `Usage: interceptor-console invoke (--server-command "<cmd> <args…>" | --server-url <url>)
         --name <interceptor> --event <event> --phase request|response --payload <json>
         [--config <json object>] [--context <json object>] [--timeout-ms <n>]

Sends one interceptor/invoke and prints the result JSON on stdout. Exit 0 with the result (also
when a validation says valid:false), 1 when the invocation fails (connection, JSON-RPC error,
timeout, malformed result), 2 for bad flags.

Options:
  --name <interceptor>             interceptor name, as printed by \`list\`
  --event <event>                  e.g. tools/call
  --phase request|response
  --payload <json>                 request params or response result, e.g. '{"name":"echo","arguments":{}}'
  --config <json object>           per-interceptor config (checked against its configSchema)
  --context <json object>          invocation context, e.g. '{"sessionId":"s1","traceId":"t1"}'
  --timeout-ms <n>                 deadline sent to the host and enforced locally

${serverTargetUsage}

Example:
  interceptor-console invoke --server-command "interceptor-console serve-samples" --name email-redactor \\
    --event tools/call --phase request --payload '{"name":"send","arguments":{"to":"a@example.com"}}'`;

const HINTS: Record<string, string> = {
  timeout: 'raise --timeout-ms, or look at why the interceptor is slow',
  crash: "the interceptor threw: see the message above and the server's stderr",
  transport: 'the server went away: check that it is running and look at its stderr',
  malformed: 'the server answered with a result that breaks the protocol: report it to its author',
  cancelled: 'the invocation was cancelled',
};

function parseJsonFlag(flag: string, raw: string | undefined, expected: 'any' | 'object'): unknown {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new UsageError(`--${flag} must be JSON (${(err as Error).message}); quote it for your shell, e.g. --${flag} '{"a":1}'`);
  }
  if (expected === 'object' && (!value || typeof value !== 'object' || Array.isArray(value))) {
    throw new UsageError(`--${flag} must be a JSON object such as '{"key":"value"}', got ${JSON.stringify(value)}`);
  }
  return value;
}

export const invokeCommand: CliCommand = {
  name: 'invoke',
  summary: 'Invoke one interceptor on an interceptor server (interceptor/invoke)',
  usage,
  async run(argv) {
    const { values } = parseFlags(argv, {
      ...serverTargetOptions,
      name: { type: 'string' },
      event: { type: 'string' },
      phase: { type: 'string' },
      payload: { type: 'string' },
      config: { type: 'string' },
      context: { type: 'string' },
      'timeout-ms': { type: 'string' },
    });
    const connection = connectionFromFlags(values);
    const connectTimeout = connectTimeoutFromFlags(values);
    for (const flag of ['name', 'event', 'phase', 'payload'] as const) {
      if (values[flag] === undefined || values[flag] === '') throw new UsageError(`missing --${flag}`);
    }
    const phase = values.phase;
    if (phase !== 'request' && phase !== 'response') throw new UsageError(`--phase must be "request" or "response", got "${phase}"`);
    const payload = parseJsonFlag('payload', values.payload, 'any');
    const config = parseJsonFlag('config', values.config, 'object') as Record<string, unknown> | undefined;
    const rawContext = parseJsonFlag('context', values.context, 'object');
    const context = rawContext === undefined ? undefined : InvocationContextSchema.safeParse(rawContext);
    if (context && !context.success) {
      const issue = context.error.issues[0];
      throw new UsageError(`--context is not a valid invocation context: ${issue?.path.join('.') || 'context'}: ${issue?.message}`);
    }
    let timeoutMs: number | undefined;
    if (values['timeout-ms'] !== undefined) {
      timeoutMs = Number(values['timeout-ms']);
      if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout-ms must be a positive integer of ms, got "${values['timeout-ms']}"`);
    }
    const params: InvokeParams = {
      name: values.name!,
      event: values.event!,
      phase,
      payload,
      ...(config ? { config } : {}),
      ...(context?.success ? { context: context.data } : {}),
    };
    const result = await withServerClient(connection, connectTimeout, async (client) => {
      try {
        return await client.invoke(params, { timeoutMs });
      } catch (err) {
        if (!(err instanceof InvokeError)) throw err;
        const data = err.data !== undefined ? `\n  data: ${JSON.stringify(err.data)}` : '';
        const hint =
          err.kind === 'rpc' && err.code === -32602
            ? 'check --name (run `interceptor-console list` with the same server flags), the params, and --config'
            : (HINTS[err.kind] ?? 'see the message above');
        const stderr = client.status.stderrTail?.trim();
        const tail = stderr && (err.kind === 'crash' || err.kind === 'transport') ? `\n  server stderr: ${stderr.split('\n').slice(-3).join(' | ')}` : '';
        throw new CliFailure(`invoke failed [${err.kind}]: ${err.message}${data}${tail}\n  → ${hint}`);
      }
    });
    console.log(JSON.stringify(result, null, 2));
    return 0;
  },
};
