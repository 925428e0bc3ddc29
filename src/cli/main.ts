import { Command } from 'commander';

/** Entry point of the `switchboard` command. Subcommands register themselves here. */
const program = new Command('switchboard')
  .description('Build and run conversational bots on the Messaging Developer API')
  .version('0.1.0');

await program.parseAsync(process.argv);
