// How every command reads its argv: node's parseArgs in strict mode (an unknown or malformed flag is an
// error, never ignored), with its errors turned into usage errors so the entry point prints the message
// and the usage and exits 2.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

function asUsageError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Flags only: a positional argument is a usage error. */
export function parseFlags<const O extends FlagOptions>(argv: string[], options: O) {
  return asUsageError(() => parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
}

/** Flags and positional arguments (the command checks how many it got). */
export function parseFlagsAndPositionals<const O extends FlagOptions>(argv: string[], options: O) {
  return asUsageError(() => parseArgs({ args: argv, options, strict: true, allowPositionals: true }));
}
