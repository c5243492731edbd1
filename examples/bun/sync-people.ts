/**
 * On Bun: pages through a server's people with `for await`, records a signature on its
 * first petition through the helper (the key stays in the environment, never in a page),
 * and prints a summary. The SDK code is ../shared/sync-people.ts, the same on Deno.
 *
 *   ADIS_URL=https://adis.example.org/api/v1/ ADIS_KEY=… bun run examples/bun/sync-people.ts
 *
 * It writes a signature: run it against a test server, not production.
 */
import { isAdisError } from 'adis-sdk';
import { syncPeople } from '../shared/sync-people.js';

const url = Bun.env.ADIS_URL;
const apiKey = Bun.env.ADIS_KEY;
if (!url || !apiKey) {
  console.error('Set ADIS_URL (the entry point) and ADIS_KEY (a key with write access).');
  process.exit(2);
}

try {
  for (const line of await syncPeople(url, apiKey, 'Bun')) console.log(line);
} catch (error) {
  // Typed errors carry the server's own explanation (std:error) in their message.
  console.error(isAdisError(error) ? `${error.code}: ${error.message}` : error);
  process.exit(1);
}
