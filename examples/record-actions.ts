/**
 * Records actions through a server's helpers, the way an integration and a signup page
 * do: a signature with an API key (with a tag that exists and one that does not, so the
 * answer is a partial success), the same signature from a page without a key, and a
 * message scheduled and unscheduled. Prints what happened at each step.
 *
 *   npx tsx examples/record-actions.ts <entry point URL> <API key>
 *
 * or with ADIS_URL and ADIS_KEY in the environment. It writes to the server: run it
 * against a test server (the demo's), not production.
 */
import { parseArgs } from 'node:util';
import {
  connect,
  errorDescriptions,
  isAdisError,
  isHTTPError,
  type PersonInput,
  recordSignature,
} from 'adis-sdk';

/** What {@link recordActions} did, step by step, for printing or checking. */
export interface ActionsReport {
  petition: string;
  /** `total_signatures` before and after the two signatures. */
  totalBefore: number;
  totalAfter: number;
  /** The keyed call: whether every part succeeded, and the codes of the parts that failed. */
  keyed: { status: number; complete: boolean; failedCodes: string[]; signer: string | undefined };
  /** The call without a key: its status and whether a record came back (it must not). */
  anonymous: { status: number; complete: boolean; recordReturned: boolean };
  /** The message helpers: each call and the notice or error code it got. */
  message: string[];
}

async function first<T>(items: AsyncIterable<T>): Promise<T | undefined> {
  for await (const item of items) return item;
  return undefined;
}

/**
 * Runs the tour against a server and reports each step.
 *
 * @example
 * ```ts
 * const report = await recordActions('http://127.0.0.1:8000/api/v1/', process.env.ADIS_KEY);
 * console.log(report.totalAfter - report.totalBefore); // 2
 * ```
 */
export async function recordActions(url: string, apiKey?: string): Promise<ActionsReport> {
  const client = await connect(url, { ...(apiKey ? { apiKey } : {}) });
  const petition = await first(client.petitions.items({ limit: 1 }));
  if (!petition) throw new Error('The server has no petition to sign.');
  const tag = await first(client.tags.items({ limit: 1 }));
  const totalBefore = Number(petition.data.total_signatures ?? 0);

  const signer: PersonInput = {
    given_name: 'Rosa',
    family_name: 'Delgado',
    email_addresses: [{ address: 'rosa.delgado@example.org', primary: true }],
    postal_addresses: [{ postal_code: '11217', country: 'US' }],
  };
  // One tag that exists and one that does not: the signature is kept, the add_tags part
  // fails as a whole (no tag is added), and the answer says so instead of throwing.
  const keyed = await petition.recordSignature({
    person: signer,
    comments: 'Keep the park public.',
    add_tags: [...(tag?.data.name ? [tag.data.name] : []), 'No such tag'],
  });

  // A page knows only the helper's href and has no key: it gets `{}` back.
  const href = petition.link('std:record_signature_helper')?.url();
  if (!href) throw new Error('The petition links no record signature helper.');
  const anonymous = await recordSignature(href, {
    person: { given_name: 'Sam', email_addresses: [{ address: 'sam.okafor@example.org' }] },
  });

  const totalAfter = Number((await petition.refresh()).data.total_signatures ?? 0);

  const message: string[] = [];
  const draft = await first(client.messages.items({ limit: 1 }));
  if (draft) {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    try {
      message.push(
        `schedule: ${(await draft.schedule({ scheduled_start_date: tomorrow })).notice}`,
      );
      message.push(`cancel schedule: ${(await draft.cancelSchedule()).notice}`);
    } catch (error) {
      // A message without a list or query to send to cannot be scheduled.
      if (!isHTTPError(error)) throw error;
      const codes = errorDescriptions(error.stdError).map((d) => d.error_code);
      message.push(`schedule refused: ${error.status} ${codes.join(', ')}`);
    }
  }

  return {
    petition: String(petition.data.title),
    totalBefore,
    totalAfter,
    keyed: {
      status: keyed.status,
      complete: keyed.complete,
      failedCodes: keyed.failures.flatMap((part) =>
        part.error_descriptions.map((d) => d.error_code),
      ),
      signer: keyed.person?.data.given_name ?? undefined,
    },
    anonymous: {
      status: anonymous.status,
      complete: anonymous.complete,
      recordReturned: anonymous.record !== undefined,
    },
    message,
  };
}

/**
 * The report as lines of text.
 *
 * @example
 * ```ts
 * console.log(formatActions(await recordActions(url, key)));
 * ```
 */
export function formatActions(report: ActionsReport): string {
  const { keyed, anonymous } = report;
  return [
    `Petition: ${report.petition}`,
    `  with a key:    ${keyed.status}, ${keyed.complete ? 'complete' : `partial (failed: ${keyed.failedCodes.join(', ')})`}, signer ${keyed.signer ?? '?'}`,
    `  without a key: ${anonymous.status}, ${anonymous.complete ? 'complete' : 'partial'}, record returned: ${anonymous.recordReturned}`,
    `  total_signatures: ${report.totalBefore} → ${report.totalAfter}`,
    ...report.message.map((line) => `Message ${line}`),
  ].join('\n');
}

async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true });
  const url = positionals[0] ?? process.env.ADIS_URL;
  const key = positionals[1] ?? process.env.ADIS_KEY;
  if (!url) {
    console.error('usage: tsx examples/record-actions.ts <entry point URL> [API key]');
    process.exitCode = 2;
    return;
  }
  console.log(formatActions(await recordActions(url, key)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(isAdisError(error) ? error.message : error);
    process.exitCode = 1;
  });
}
