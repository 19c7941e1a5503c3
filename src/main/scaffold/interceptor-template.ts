// The files of a new interceptor project (`interceptor-console new interceptor <name>`): a TypeScript
// interceptor server on the host SDK (`interceptor-console/host`), one test of its own, a gateway config
// with chain test cases for it, and the scripts that run the test, the conformance fixtures and the chain
// tests. Kept as code (not template files) so that the names are filled in by one function and typed.

export interface TemplateInput {
  /** The interceptor's (and the package's) name: lower case, digits and dashes. */
  name: string;
  /** `file:` spec of the interceptor-console package this project builds on. */
  consoleDependency: string;
  /** Version ranges of the packages the project runs with (taken from the installed interceptor-console). */
  versions: { tsx: string; typescript: string; nodeTypes: string };
}

const CASE_FORMAT = 'interceptor-console.chain-test/1';

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function interceptorProjectFiles(input: TemplateInput): Record<string, string> {
  const { name } = input;
  const request = (text: string) => ({ name: 'send-message', arguments: { text } });
  return {
    'package.json': json({
      name,
      version: '0.1.0',
      private: true,
      type: 'module',
      description: `The ${name} interceptor (SEP-2624), served over stdio by the interceptor-console host SDK`,
      scripts: {
        start: 'node --import tsx src/server.ts',
        test: 'node --import tsx --test test/interceptor.test.ts',
        conformance: 'interceptor-console conformance conformance',
        'chain-test': 'interceptor-console test --config gateway.json',
        check: 'npm test && npm run conformance && npm run chain-test',
      },
      dependencies: { 'interceptor-console': input.consoleDependency, tsx: input.versions.tsx },
      devDependencies: { typescript: input.versions.typescript, '@types/node': input.versions.nodeTypes },
    }),
    'tsconfig.json': json({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      include: ['src', 'test'],
    }),
    'src/interceptor.ts': `// ${name}: a validator that blocks a tools/call whose arguments contain a blocked word.
// Change the hooks, the config and the handler to what your interceptor must do; \`npm run check\` then
// runs its test, the conformance fixtures and the chain tests in gateway.tests/.
import { validator } from 'interceptor-console/host';

export interface Config {
  /** Words that must not appear in any string argument (case-insensitive); default ["forbidden"]. */
  blocked?: string[];
}

function strings(value: unknown, path: string, out: { path: string; text: string }[]): void {
  if (typeof value === 'string') out.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, \`\${path}[\${i}]\`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, \`\${path}.\${k}\`, out);
}

export const interceptor = validator<Config>({
  name: '${name}',
  description: 'Blocks tools/call requests whose arguments contain a blocked word',
  version: '0.1.0',
  events: ['tools/call'],
  phase: 'request',
  configSchema: {
    type: 'object',
    properties: { blocked: { type: 'array', items: { type: 'string', minLength: 1 } } },
    // Optional: a gateway skips an interceptor whose schema requires a config it was not given.
    additionalProperties: false,
  },
  defaultConfig: { blocked: ['forbidden'] },
  handler(payload, ctx) {
    const found: { path: string; text: string }[] = [];
    strings((payload as { arguments?: unknown } | undefined)?.arguments, '$.arguments', found);
    const words = (ctx.config.blocked ?? ['forbidden']).map((w) => w.toLowerCase());
    const messages = found
      .filter((s) => words.some((w) => s.text.toLowerCase().includes(w)))
      .map((s) => ({ path: s.path, message: \`contains a blocked word\`, severity: 'error' as const }));
    return messages.length ? { valid: false, severity: 'error', messages } : { valid: true };
  },
});
`,
    'src/server.ts': `// Serves the interceptor over stdio: a gateway (or \`interceptor-console list/invoke\`) starts this process.
import { InterceptorHost, serveHostOverStdio } from 'interceptor-console/host';
import { interceptor } from './interceptor.js';

const host = new InterceptorHost({ serverInfo: { name: '${name}', version: '0.1.0' } });
host.register(interceptor);
await serveHostOverStdio(host);
`,
    'test/interceptor.test.ts': `// The interceptor's own test: invoked through a real host, as a gateway would invoke it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InterceptorHost } from 'interceptor-console/host';
import { interceptor } from '../src/interceptor.js';

const host = new InterceptorHost().register(interceptor);
const invoke = (payload: unknown, config?: unknown) =>
  host.invoke({ name: '${name}', event: 'tools/call', phase: 'request', payload, ...(config ? { config } : {}) });

test('lets a call without blocked words through', async () => {
  const result = await invoke({ name: 'send-message', arguments: { text: 'hello' } });
  assert.equal(result.type, 'validation');
  assert.equal(result.type === 'validation' && result.valid, true);
});

test('blocks a call with a blocked word, naming where', async () => {
  const result = await invoke({ name: 'send-message', arguments: { text: 'this is Forbidden' } });
  assert.equal(result.type === 'validation' && result.valid, false);
  assert.equal(result.type === 'validation' && result.messages?.[0]?.path, '$.arguments.text');
});

test('takes its words from the config, and refuses a config that breaks its schema', async () => {
  const result = await invoke({ name: 'x', arguments: { text: 'hello' } }, { blocked: ['hello'] });
  assert.equal(result.type === 'validation' && result.valid, false);
  await assert.rejects(invoke({ name: 'x', arguments: {} }, { blocked: 'hello' }), /Invalid config/);
});
`,
    'gateway.json': json({
      backend: {
        transport: 'stdio',
        name: 'my-mcp-server',
        command: 'node',
        arguments: ['path/to/your/mcp-server.js'],
      },
      staticInterceptors: [{ transport: 'stdio', name, command: 'node', arguments: ['--import', 'tsx', 'src/server.ts'] }],
    }),
    'gateway.tests/allowed.json': json({
      format: CASE_FORMAT,
      name: 'a harmless message is allowed',
      method: 'tools/call',
      request: request('hello'),
      backendAnswer: { result: { content: [{ type: 'text', text: 'sent' }] } },
      expect: { outcome: 'allowed', decidedBy: [], forwarded: request('hello'), returned: { content: [{ type: 'text', text: 'sent' }] } },
    }),
    'gateway.tests/blocked.json': json({
      format: CASE_FORMAT,
      name: 'a forbidden word is blocked',
      method: 'tools/call',
      request: request('something forbidden'),
      expect: { outcome: 'blocked', decidedBy: [{ interceptor: `${name}/${name}`, phase: 'request', outcome: 'blocked' }] },
    }),
    '.gitignore': 'node_modules/\n',
    'README.md': `# ${name}

An MCP interceptor (SEP-2624) served over stdio by the interceptor-console host SDK.

- \`npm install\`, then \`npm run check\`: the interceptor's own test, the conformance fixtures
  (\`conformance/\`) and the chain tests (\`gateway.tests/\`, run against \`gateway.json\`'s chain with the
  backend mocked by each case's recorded answer).
- \`npm start\` serves it over stdio; \`interceptor-console list --server-command "npm start --silent"\` lists it.
- Point \`gateway.json\`'s backend at your MCP server and run \`interceptor-console gateway --config gateway.json\`;
  calls recorded in the console's Traffic screen can be saved as more cases in \`gateway.tests/\`.
`,
  };
}
