/**
 * What the Bun and Deno examples do, in code that runs as it is on both (and on Node
 * and in a Worker): only the SDK and the Fetch API, no runtime's own globals. Pages
 * through a server's people with `for await`, records a signature on its first
 * petition through the helper with the key, and returns a summary to print.
 */
import { connect, primaryEmail } from 'adis-sdk';
import { recordSignature } from 'adis-sdk/helpers';

/**
 * Counts the people, signs the first petition as "Ada <runtime>", and returns the
 * lines to print. Throws the SDK's typed errors.
 *
 * @example
 * ```ts
 * for (const line of await syncPeople(url, apiKey, 'Deno')) console.log(line);
 * ```
 */
export async function syncPeople(url: string, apiKey: string, runtime: string): Promise<string[]> {
  const client = await connect(url, { apiKey });
  const lines: string[] = [];

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
  lines.push(
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
          family_name: runtime,
          email_addresses: [{ address: `ada.${runtime.toLowerCase()}@example.org`, primary: true }],
        },
        comments: `Signed from ${runtime}`,
      },
      { apiKey },
    );
    const after = Number((await petition.refresh()).data.total_signatures ?? 0);
    lines.push(
      `Signed "${petition.data.title}": ${result.status}, ${result.complete ? 'complete' : 'partial'}, total_signatures ${before} → ${after}`,
    );
  }
  return lines;
}
