/**
 * `adis-server`'s flags as `node:util` parses them: names and types only. What each
 * value must be is checked by `option-parsers.ts`, and all of them together by
 * `server-settings.ts`.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

function parseFlags(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      'pool-size': { type: 'string' },
      keys: { type: 'string' },
      webhooks: { type: 'string' },
      'webhooks-allow-private': { type: 'boolean' },
      'remove-demo-key': { type: 'boolean' },
      seed: { type: 'string' },
      'public-url': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'trust-proxy': { type: 'boolean' },
      'keyless-tag': { type: 'string', multiple: true },
      'keyless-list': { type: 'string', multiple: true },
      'message-send-rate': { type: 'string' },
      preset: { type: 'string' },
      'key-header': { type: 'string' },
      'curie-prefix': { type: 'string' },
      'key-rate': { type: 'string' },
      'webhook-retry-hours': { type: 'string' },
      'webhook-subscription-limit': { type: 'string' },
      'webhook-concurrency': { type: 'string' },
      'headers-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      'keep-alive-timeout': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

/**
 * The flags as given, by name: strings (a list for the repeatable `--cors-origin`,
 * `--keyless-tag` and `--keyless-list`) and booleans, unchecked.
 */
export type ServerArguments = ReturnType<typeof parseFlags>['values'];

/**
 * The flags in `argv` (the arguments after the command name), or `'help'` for `--help`
 * (`-h`). An unknown flag, a flag without its value or a positional argument is a
 * {@link UsageError} with `node:util`'s own message, which names the argument.
 *
 * @example
 * ```ts
 * import { parseArguments } from './arguments.js';
 *
 * parseArguments(['--port', '0', '--quiet']); // { port: '0', quiet: true }
 * parseArguments(['--prot', '0']); // UsageError: Unknown option '--prot'. …
 * ```
 */
export function parseArguments(argv: readonly string[]): ServerArguments | 'help' {
  let values: ServerArguments;
  try {
    values = parseFlags(argv).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return values.help ? 'help' : values;
}
