/**
 * Walks a server's organizing activity through links only and prints a report: each
 * petition with its signature count and first signers, each event with its RSVPs and
 * ticket sales, each fundraising page's total, and how many records each tag is on.
 *
 *   npx tsx examples/organizing-report.ts <entry point URL> <API key>
 *
 * or with ADIS_URL and ADIS_KEY in the environment. Works against any compliant
 * server; `--rate 4` keeps to four requests a second for servers that limit you.
 */
import { parseArgs } from 'node:util';
import { amountValue, connect, isAdisError, primaryEmail } from 'adis-sdk';

/** One petition of {@link OrganizingReport}. */
export interface PetitionReport {
  title: string;
  /** The server's `total_signatures`. */
  totalSignatures: number;
  /** Name of the organization sponsoring it (`std:sponsor`), if any. */
  sponsor: string | undefined;
  /** Names of the first three signers, in the order the server lists signatures. */
  firstSigners: string[];
}

/** One ticket level of an event. */
export interface TicketLevelReport {
  title: string;
  amount: number | undefined;
  currency: string | undefined;
  /** Tickets sold at this level. */
  sold: number;
  /** Tickets still available, when the level has a limit. */
  remaining: number | undefined;
}

/** One event of {@link OrganizingReport}. */
export interface EventReport {
  title: string;
  type: string | undefined;
  /** `start_date`, or `all_day_date` for an all-day event. */
  when: string | undefined;
  venue: string | undefined;
  totalAccepted: number;
  totalTickets: number;
  totalAmount: number;
  ticketLevels: TicketLevelReport[];
}

/** One fundraising page of {@link OrganizingReport}. */
export interface FundraisingPageReport {
  title: string;
  currency: string | undefined;
  totalDonations: number;
  /** Total raised, voided donations not counted. */
  totalAmount: number;
}

/** One tag of {@link OrganizingReport}. */
export interface TagReport {
  name: string;
  /** How many people and other records carry the tag. */
  taggings: number;
}

/** What {@link organizingReport} found. */
export interface OrganizingReport {
  petitions: PetitionReport[];
  events: EventReport[];
  fundraisingPages: FundraisingPageReport[];
  tags: TagReport[];
  seconds: number;
}

/**
 * Walks the server at `url` from its entry point, through links only: the petitions,
 * events, fundraising pages and tags collections, each petition's signatures and each
 * signature's person, each petition's sponsor, each tag's taggings.
 *
 * @example
 * ```ts
 * const report = await organizingReport('http://127.0.0.1:8000/api/v1/', process.env.ADIS_KEY);
 * for (const petition of report.petitions) console.log(petition.title, petition.totalSignatures);
 * ```
 */
export async function organizingReport(
  url: string,
  apiKey: string | undefined,
  options: { rateLimit?: number } = {},
): Promise<OrganizingReport> {
  const started = performance.now();
  const client = await connect(url, {
    ...(apiKey ? { apiKey } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
  });

  const petitions: PetitionReport[] = [];
  for await (const petition of client.petitions) {
    const firstSigners: string[] = [];
    for (const signature of await petition.signatures().toArray({ limit: 3 })) {
      const signer = await signature.person();
      const name = [signer.data.given_name, signer.data.family_name].filter(Boolean).join(' ');
      firstSigners.push(name || primaryEmail(signer.data) || signer.url);
    }
    const sponsor = await petition.sponsor();
    petitions.push({
      title: petition.data.title ?? petition.data.name ?? petition.url,
      totalSignatures: petition.data.total_signatures ?? 0,
      sponsor: sponsor ? (sponsor.data.organization ?? sponsor.url) : undefined,
      firstSigners,
    });
  }

  const events: EventReport[] = [];
  for await (const event of client.events) {
    const data = event.data;
    events.push({
      title: data.title ?? data.name ?? event.url,
      type: data.type ?? undefined,
      when: (data.all_day ? data.all_day_date : data.start_date) ?? undefined,
      venue: data.location?.venue ?? undefined,
      totalAccepted: data.total_accepted ?? 0,
      totalTickets: data.total_tickets ?? 0,
      totalAmount: amountValue(data.total_amount) ?? 0,
      ticketLevels: (data.ticket_levels ?? []).map((level) => ({
        title: level.title ?? '(untitled)',
        amount: amountValue(level.amount),
        currency: level.currency ?? undefined,
        // Computed members of a ticket level are typed loosely: read the number defensively.
        sold: typeof level.total_tickets === 'number' ? level.total_tickets : 0,
        remaining: level.limit ?? undefined,
      })),
    });
  }

  const fundraisingPages: FundraisingPageReport[] = [];
  for await (const page of client.fundraisingPages) {
    fundraisingPages.push({
      title: page.data.title ?? page.data.name ?? page.url,
      currency: page.data.currency ?? undefined,
      totalDonations: page.data.total_donations ?? 0,
      totalAmount: amountValue(page.data.total_amount) ?? 0,
    });
  }

  const tags: TagReport[] = [];
  for await (const tag of client.tags) {
    // The first page says how many taggings there are; count them when it does not.
    let taggings: number | undefined;
    for await (const page of tag.taggings().pages({ limit: 1 })) taggings = page.totalRecords;
    if (taggings === undefined) {
      taggings = 0;
      for await (const _tagging of tag.taggings()) taggings += 1;
    }
    tags.push({ name: tag.data.name ?? tag.url, taggings });
  }

  const seconds = (performance.now() - started) / 1000;
  return { petitions, events, fundraisingPages, tags, seconds };
}

/**
 * Money as people read it: `$1,234.50` for USD, `1,234.50 EUR` otherwise.
 *
 * @example
 * ```ts
 * formatMoney(1234.5, 'USD'); // '$1,234.50'
 * ```
 */
export function formatMoney(amount: number, currency: string | undefined): string {
  if (!currency) return amount.toFixed(2);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/**
 * The report as printed by the command: one block per section.
 *
 * @example
 * ```ts
 * console.log(formatReport(await organizingReport(url, key)));
 * ```
 */
export function formatReport(report: OrganizingReport): string {
  const lines: string[] = [];
  lines.push(`Petitions (${report.petitions.length})`);
  for (const petition of report.petitions) {
    const sponsor = petition.sponsor ? ` — sponsored by ${petition.sponsor}` : '';
    lines.push(`  ${petition.title}${sponsor}`);
    lines.push(`    ${petition.totalSignatures} signatures`);
    if (petition.firstSigners.length) {
      lines.push(`    first signed by ${petition.firstSigners.join(', ')}`);
    }
  }
  lines.push('', `Events (${report.events.length})`);
  for (const event of report.events) {
    const where = event.venue ? ` at ${event.venue}` : '';
    lines.push(
      `  ${event.title} (${event.type ?? 'event'}, ${event.when ?? 'date to be set'}${where})`,
    );
    lines.push(`    ${event.totalAccepted} accepted`);
    if (event.ticketLevels.length) {
      lines.push(
        `    ${event.totalTickets} tickets sold, ${formatMoney(event.totalAmount, event.ticketLevels[0]?.currency)}`,
      );
      for (const level of event.ticketLevels) {
        const price =
          level.amount === undefined ? '' : ` at ${formatMoney(level.amount, level.currency)}`;
        const left = level.remaining === undefined ? '' : `, ${level.remaining} left`;
        lines.push(`      ${level.title}${price}: ${level.sold} sold${left}`);
      }
    }
  }
  lines.push('', `Fundraising pages (${report.fundraisingPages.length})`);
  for (const page of report.fundraisingPages) {
    lines.push(
      `  ${page.title}: ${formatMoney(page.totalAmount, page.currency)} from ${page.totalDonations} donations`,
    );
  }
  lines.push('', `Tags (${report.tags.length})`);
  for (const tag of report.tags) lines.push(`  ${tag.name}: ${tag.taggings} taggings`);
  lines.push('', `Took ${report.seconds.toFixed(2)} s`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rate: { type: 'string' } },
  });
  const url = positionals[0] ?? process.env.ADIS_URL;
  const key = positionals[1] ?? process.env.ADIS_KEY;
  if (!url) {
    console.error(
      'usage: tsx examples/organizing-report.ts <entry point URL> [API key] [--rate N]',
    );
    process.exitCode = 2;
    return;
  }
  const report = await organizingReport(url, key, {
    ...(values.rate ? { rateLimit: Number(values.rate) } : {}),
  });
  console.log(formatReport(report));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(isAdisError(error) ? error.message : error);
    process.exitCode = 1;
  });
}
