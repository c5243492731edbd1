/**
 * `adis-server` as a function of its arguments: read them, then start the server.
 * `../cli.ts` is the executable that runs it.
 */
import { parseArguments } from './arguments.js';
import { HELP } from './help.js';
import { runServer } from './run-server.js';
import { serverSettings } from './server-settings.js';

/**
 * Runs `adis-server` with `argv` (the arguments after the command name): prints the help,
 * or checks every flag and starts the server, resolving once it serves (it then runs
 * until stopped). Rejects with a `UsageError` for a mistake in the command line, another
 * error for a failed start. `serverRoot` is the server's package folder, where the
 * default database is found.
 */
export async function main(argv: readonly string[], serverRoot: string): Promise<void> {
  const values = parseArguments(argv);
  if (values === 'help') {
    process.stdout.write(HELP);
    return;
  }
  // `npm start` from the repository root runs this in reference-server/; npm keeps the
  // directory the user typed the command in as INIT_CWD, and paths the user gives are
  // relative to that.
  const userDir = process.env.INIT_CWD ?? process.cwd();
  const settings = serverSettings(values, { serverRoot, userDir, env: process.env });
  await runServer(settings);
}
