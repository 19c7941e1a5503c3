// Entry point of the `interceptor-console` bin: dispatches to a command from the registry.
import { commands } from './commands/index';
import { CliFailure, UsageError } from './command';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'interceptor-console: gateways, interceptors and traffic for MCP interceptors (SEP-2624)',
    '',
    'Usage: interceptor-console <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `interceptor-console <command> --help` for the options of one command.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    console.log(process.env.npm_package_version ?? '0.1.0');
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`error: ${err.message}\n\n${command.usage}`);
      return 2;
    }
    if (err instanceof CliFailure) {
      console.error(`error: ${err.message}`);
      return 1;
    }
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
