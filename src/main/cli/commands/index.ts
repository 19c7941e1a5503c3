// The registry of CLI commands. Each capability adds its command file here (one line each).
import type { CliCommand } from '../command';

export const commands: CliCommand[] = [];
