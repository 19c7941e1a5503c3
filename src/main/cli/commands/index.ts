// The registry of CLI commands. Each capability adds its command file here (one line each).
import type { CliCommand } from '../command';
import { webCommand } from './web';
import { gatewayCommand } from './gateway';
import { conformanceCommand } from './conformance';

export const commands: CliCommand[] = [gatewayCommand, webCommand, conformanceCommand];
