/**
 * Pages through a server's people and prints a summary.
 *
 *   npx tsx examples/page-people.ts <entry point URL> <API key>
 *
 * or with ADIS_URL and ADIS_KEY in the environment. Works against any compliant
 * server; `--rate 4` keeps to four requests a second for servers that limit you.
 */
import { parseArgs } from 'node:util';
import { connectWith, isAdisError, personKind, primaryEmail } from 'adis-sdk';

/** What {@link summarisePeople} found. */
export interface PeopleSummary {
  people: number;
  pages: number;
  withEmail: number;
  withPhone: number;
  topLocalities: [string, number][];
  seconds: number;
}

/**
 * Pages through every person of the server at `url` and counts what it sees. Only the
 * current page is in memory, however many people there are.
 */
export async function summarisePeople(
  url: string,
  apiKey: string | undefined,
  options: { rateLimit?: number; readAhead?: boolean } = {},
): Promise<PeopleSummary> {
  const started = performance.now();
  // Only people are read: the client registers the person kind alone.
  const client = await connectWith([personKind], url, {
    ...(apiKey ? { apiKey } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
  });
  const localities = new Map<string, number>();
  let people = 0;
  let pages = 0;
  let withEmail = 0;
  let withPhone = 0;
  for await (const page of client.people.pages({ readAhead: options.readAhead ?? true })) {
    pages += 1;
    for (const person of page.items) {
      people += 1;
      if (primaryEmail(person.data)) withEmail += 1;
      if (person.data.phone_numbers?.length) withPhone += 1;
      const locality = person.data.postal_addresses?.[0]?.locality;
      if (locality) localities.set(locality, (localities.get(locality) ?? 0) + 1);
    }
  }
  const topLocalities = [...localities].sort((a, b) => b[1] - a[1]).slice(0, 5);
  const seconds = (performance.now() - started) / 1000;
  return { people, pages, withEmail, withPhone, topLocalities, seconds };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rate: { type: 'string' } },
  });
  const url = positionals[0] ?? process.env.ADIS_URL;
  const key = positionals[1] ?? process.env.ADIS_KEY;
  if (!url) {
    console.error('usage: tsx examples/page-people.ts <entry point URL> [API key] [--rate N]');
    process.exitCode = 2;
    return;
  }
  const summary = await summarisePeople(url, key, {
    ...(values.rate ? { rateLimit: Number(values.rate) } : {}),
  });
  console.log(`People:       ${summary.people} in ${summary.pages} pages`);
  console.log(`With email:   ${summary.withEmail}`);
  console.log(`With phone:   ${summary.withPhone}`);
  console.log(
    `Top places:   ${summary.topLocalities.map(([place, n]) => `${place} (${n})`).join(', ') || 'none'}`,
  );
  console.log(`Took:         ${summary.seconds.toFixed(2)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(isAdisError(error) ? error.message : error);
    process.exitCode = 1;
  });
}
