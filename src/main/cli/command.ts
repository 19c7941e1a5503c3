// A CLI command: its name, a one-line summary, its usage text, and a runner returning the exit code.
// Exit codes: 0 success, 1 failure while working, 2 usage error (bad flags, invalid config).
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** Thrown for bad flags or arguments; the entry point prints the message and the usage, exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Thrown for failures the user can act on; printed without a stack, exit 1. */
export class CliFailure extends Error {
  override name = 'CliFailure';
}
