// `interceptor-console new interceptor <name>`: scaffolds an interceptor project (src/main/scaffold).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterceptorProject, ScaffoldError } from '../../scaffold/create-project';
import { findPackageRoot } from '../../services/environment';
import { CliFailure, UsageError, type CliCommand } from '../command';
import { parseFlagsAndPositionals } from '../flags';

const usage = `Usage: interceptor-console new interceptor <name> [--dir <folder>]

Creates a TypeScript interceptor server on the host SDK (interceptor-console/host) in ./<name>
(or --dir): the interceptor (a validator to start from), its stdio server, one test, a gateway config
with two chain test cases for it, the conformance fixtures, and the scripts that run them:
  npm install && npm run check   (npm test, npm run conformance, npm run chain-test)

Options:
  --dir <folder>   where to create the project (must not exist, or be empty)`;

export const newCommand: CliCommand = {
  name: 'new',
  summary: 'Scaffold an interceptor project (TypeScript, host SDK, test, conformance and chain tests)',
  usage,
  async run(argv) {
    const { values, positionals } = parseFlagsAndPositionals(argv, { dir: { type: 'string' } });
    const [kind, name, ...extra] = positionals;
    if (kind !== 'interceptor')
      throw new UsageError(kind ? `cannot create "${kind}": only "interceptor" projects exist` : 'say what to create: new interceptor <name>');
    if (!name) throw new UsageError('missing <name>: the interceptor\'s name, e.g. "new interceptor block-words"');
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const dir = resolve(values.dir ?? name);
    const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
    let created;
    try {
      created = createInterceptorProject({ name, dir, packageRoot });
    } catch (err) {
      if (err instanceof ScaffoldError) throw new UsageError(err.message);
      throw new CliFailure(`could not create the project in ${dir}: ${(err as Error).message}`);
    }
    console.log(`created ${created.dir}:`);
    for (const f of created.files) console.log(`  ${f}`);
    if (!created.fixtures) console.log('(this install has no conformance fixtures to copy: npm run conformance needs a conformance/ folder)');
    console.log(`\nnext:\n  cd ${created.dir}\n  npm install\n  npm run check`);
    return 0;
  },
};
