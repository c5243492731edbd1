/**
 * On Deno: pages through a server's people with `for await`, records a signature on its
 * first petition through the helper (the key stays in the environment, never in a page),
 * and prints a summary.
 *
 *   ADIS_URL=https://adis.example.org/api/v1/ ADIS_KEY=… deno task sync
 *
 * (`deno task sync` is `deno run --allow-net --allow-env=ADIS_URL,ADIS_KEY sync-people.ts`.)
 *
 * It writes a signature: run it against a test server, not production.
 */
import { connect, isAdisError, primaryEmail } from 'adis-sdk';
import { recordSignature } from 'adis-sdk/helpers';

const url = Deno.env.get('ADIS_URL');
const apiKey = Deno.env.get('ADIS_KEY');
if (!url || !apiKey) {
  console.error('Set ADIS_URL (the entry point) and ADIS_KEY (a key with write access).');
  Deno.exit(2);
}

try {
  const client = await connect(url, { apiKey });

  // Pages are fetched as the loop goes: only the current page is in memory.
  let people = 0;
  let pages = 0;
  let withEmail = 0;
  for await (const page of client.people.pages()) {
    pages += 1;
    for (const person of page.items) {
      people += 1;
      if (primaryEmail(person.data)) withEmail += 1;
    }
  }
  console.log(
    `People: ${people} in ${pages} page${pages === 1 ? '' : 's'} (${withEmail} with an email address)`,
  );

  for await (const petition of client.petitions.items({ limit: 1 })) {
    const before = Number(petition.data.total_signatures ?? 0);
    // The helper functions need only the helper's URL: the same call works from a
    // backend that never loaded the navigator.
    const href = petition.link('std:record_signature_helper')?.url();
    if (!href) throw new Error('The petition links no record signature helper.');
    const result = await recordSignature(
      href,
      {
        person: {
          given_name: 'Ada',
          family_name: 'Deno',
          email_addresses: [{ address: 'ada.deno@example.org', primary: true }],
        },
        comments: 'Signed from Deno',
      },
      { apiKey },
    );
    const after = Number((await petition.refresh()).data.total_signatures ?? 0);
    console.log(
      `Signed "${petition.data.title}": ${result.status}, ${result.complete ? 'complete' : 'partial'}, total_signatures ${before} → ${after}`,
    );
  }
} catch (error) {
  // Typed errors carry the server's own explanation (std:error) in their message.
  console.error(isAdisError(error) ? `${error.code}: ${error.message}` : error);
  Deno.exit(1);
}
