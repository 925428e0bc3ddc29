import { buildProgram } from './program.js';
import { CliError } from './run-command.js';

/** Entry point of the `switchboard` command: expected failures print one line, no stack trace. */
try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CliError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(error.exitCode);
  }
  throw error;
}
