// The registry of CLI commands. Each capability adds its command file here (one line each).
import type { CliCommand } from '../command';
import { webCommand } from './web';
import { gatewayCommand } from './gateway';
import { conformanceCommand } from './conformance';
import { serveSamplesCommand } from './serve-samples';
import { listCommand } from './list';
import { invokeCommand } from './invoke';
import { historyCommand } from './history';
import { exportCommand } from './export';
import { importCommand } from './import';
import { pruneCommand } from './prune';
import { testCommand } from './test';
import { newCommand } from './new';

export const commands: CliCommand[] = [
  gatewayCommand,
  webCommand,
  conformanceCommand,
  serveSamplesCommand,
  listCommand,
  invokeCommand,
  historyCommand,
  exportCommand,
  importCommand,
  pruneCommand,
  testCommand,
  newCommand,
];
