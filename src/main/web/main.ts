// The fast entry of web mode (out/cli/web.js, what `npm start` runs without Electron): the `web`
// command alone, without loading every other CLI command first, so the URL is printed at once.
import { CliFailure, UsageError } from '../cli/command';
import { webCommand } from '../cli/commands/web';

webCommand.run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`error: ${err.message}\n\n${webCommand.usage}`);
      process.exitCode = 2;
    } else if (err instanceof CliFailure) {
      console.error(`error: ${err.message}`);
      process.exitCode = 1;
    } else {
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.exitCode = 1;
    }
  },
);
