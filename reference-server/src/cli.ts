#!/usr/bin/env node
/**
 * Command line: `tsx src/cli.ts [--port n] [--host addr] [--db path] [--keys file] [--seed n] …`,
 * or `adis-server …` once the package is installed (this file is its bin).
 * (`--help` lists every option).
 * Exit codes: 0 after a clean shutdown, 1 on a start-up failure, 2 on bad arguments.
 * The command itself is in `cli/` (`cli/main.ts`); this file only runs it.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOnFailure } from './cli/exit-on-failure.js';
import { main } from './cli/main.js';

// The server's package folder, found from this file: `src/cli.ts` and the built
// `dist/cli.js` are both one folder under it.
const serverRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

main(process.argv.slice(2), serverRoot).catch(exitOnFailure);
