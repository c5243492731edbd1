/**
 * On Deno: pages through a server's people with `for await`, records a signature on its
 * first petition through the helper (the key stays in the environment, never in a page),
 * and prints a summary. The SDK code is ../shared/sync-people.ts, the same on Bun.
 *
 *   ADIS_URL=https://adis.example.org/api/v1/ ADIS_KEY=… deno task sync
 *
 * (`deno task sync` is `deno run --allow-net --allow-env=ADIS_URL,ADIS_KEY sync-people.ts`.)
 *
 * It writes a signature: run it against a test server, not production.
 */
import { isAdisError } from 'adis-sdk';
import { syncPeople } from '../shared/sync-people.ts';

const url = Deno.env.get('ADIS_URL');
const apiKey = Deno.env.get('ADIS_KEY');
if (!url || !apiKey) {
  console.error('Set ADIS_URL (the entry point) and ADIS_KEY (a key with write access).');
  Deno.exit(2);
}

try {
  for (const line of await syncPeople(url, apiKey, 'Deno')) console.log(line);
} catch (error) {
  // Typed errors carry the server's own explanation (std:error) in their message.
  console.error(isAdisError(error) ? `${error.code}: ${error.message}` : error);
  Deno.exit(1);
}
