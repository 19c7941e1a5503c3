// The registry of CLI commands. Each capability adds its command file here (one line each).
import type { CliCommand } from '../command';
import { webCommand } from './web';

export const commands: CliCommand[] = [webCommand];
