/**
 * One suite of the SDK's public behaviour, run unchanged on every runtime the SDK
 * supports (scripts/test-runtimes.ts runs it on Node 20, 22 and 24, Bun, Deno and
 * workerd). It imports the built package by its published names and uses only what
 * every runtime has (fetch, URL, Web Crypto, timers): no `node:` module, no Node
 * global, no test framework. Each check throws on a wrong answer; the runner counts.
 */
import {
  connect,
  errorDescriptions,
  isHTTPError,
  isNetworkError,
  isSchemaValidationError,
  isTimeoutError,
  type PetitionInput,
} from 'adis-sdk';
import { recordSignature } from 'adis-sdk/helpers';
import {
  signWebhookBody,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  webhookHandler,
} from 'adis-sdk/webhooks';

/** Where the suite finds the servers the runner started for it. */
export interface SuiteConfig {
  /** The reference server's entry point (loopback, started by the runner). */
  entryPoint: string;
  /** A key of the tenant that holds `people` demo people. */
  apiKey: string;
  /** How many people that tenant holds, so that paging has a number to reach. */
  people: number;
  /** A loopback URL that accepts connections and never answers (for timeouts). */
  silentUrl: string;
  /** A loopback URL where nothing listens (for network errors). */
  closedUrl: string;
  /**
   * The same server's entry point behind a relay on loopback that answers 503 with
   * `Retry-After: 0` once, then relays every request with `_links` written last.
   */
  flakyUrl: string;
  /** What the runtime must look like from inside, so that a run cannot pass on the wrong one. */
  expect: RuntimeIdentity;
}

/** How a runtime shows itself to the code it runs. */
export interface RuntimeIdentity {
  /** The start of `navigator.userAgent`; null where there is no `navigator` (Node 20). */
  userAgent: string | null;
  /**
   * Whether Node's globals (`process`, `Buffer`, `setImmediate`) exist. Where they do
   * not (workerd), the suite's read-ahead and timers run on the SDK's fallbacks.
   */
  nodeGlobals: boolean;
}

/** One check's outcome, as the runner prints it. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** Why it failed: the error's name and message. */
  error?: string;
  ms: number;
}

type Check = (config: SuiteConfig) => Promise<void>;

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got an answer');
}

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

// A per-run suffix, so the same suite can run twice against one server.
const run = Math.random().toString(36).slice(2, 8);

const WEBHOOK_SECRET = 'whsec_runtime_suite';

function signatureDelivery(key: string): string {
  return JSON.stringify([
    {
      'osdi:signature': {
        comments: 'From the runtime suite',
        person: { given_name: 'Ada', email_addresses: [{ address: `ada+${key}@example.org` }] },
        _links: { 'osdi:petition': { href: 'https://adis.test/api/v1/petitions/1' } },
      },
      idempotency_key: key,
    },
  ]);
}

async function signedRequest(body: string, secret = WEBHOOK_SECRET): Promise<Request> {
  const header = await signWebhookBody([secret], body, Date.now() / 1000);
  return new Request('https://receiver.example/webhooks', {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: header },
    body,
  });
}

/** The checks, in order; each is independent of the others' outcome. */
export const CHECKS: Readonly<Record<string, Check>> = {
  async 'runs on the runtime it names'({ expect }) {
    const scope = globalThis as { navigator?: { userAgent?: string } } & Record<string, unknown>;
    const userAgent = scope.navigator?.userAgent ?? null;
    assert(
      expect.userAgent === null ? userAgent === null : userAgent?.startsWith(expect.userAgent),
      `navigator.userAgent is ${userAgent}, not ${expect.userAgent}…`,
    );
    const nodeGlobals = ['process', 'Buffer', 'setImmediate'].filter((name) => name in scope);
    assert(
      expect.nodeGlobals ? nodeGlobals.length === 3 : nodeGlobals.length === 0,
      `Node globals present: ${nodeGlobals.join(', ') || 'none'}`,
    );
  },

  async 'connect to the entry point'(config) {
    const client = await connect(config.entryPoint, { apiKey: config.apiKey });
    assert(client.people, 'the client has no people collection');
  },

  async 'page people with for await (and read-ahead)'(config) {
    const client = await connect(config.entryPoint, { apiKey: config.apiKey });
    const seen = new Set<string>();
    for await (const person of client.people) seen.add(person.url);
    assert(seen.size === config.people, `paged ${seen.size} people of ${config.people}`);
    let pages = 0;
    let items = 0;
    for await (const page of client.people.pages({ readAhead: true })) {
      pages++;
      items += page.items.length;
    }
    assert(pages > 1, `the people fit one page (${pages}): paging was not exercised`);
    assert(items === config.people, `read ahead ${items} people of ${config.people}`);
  },

  async 'create, read and delete a petition'(config) {
    const client = await connect(config.entryPoint, { apiKey: config.apiKey });
    const title = `Runtime suite ${run}`;
    const petition = await client.petitions.create({ title });
    assert((await petition.refresh()).data.title === title, 'the petition read back differs');
    await petition.delete();
    const gone = await rejection(petition.refresh());
    assert(isHTTPError(gone) && gone.status === 404, `after delete: ${describe(gone)}`);
  },

  async 'helper calls with a key and without one (navigator and light entry)'(config) {
    const client = await connect(config.entryPoint, { apiKey: config.apiKey });
    const petition = await client.petitions.create({ title: `Signatures ${run}` });
    const keyed = await petition.recordSignature({
      person: { given_name: 'Ana', email_addresses: [{ address: `ana.${run}@example.org` }] },
      comments: 'Yes',
    });
    assert(keyed.complete, `the keyed call was not complete (${keyed.status})`);
    assert(keyed.person?.data.given_name === 'Ana', 'the keyed call returned no person');

    // What a backend (a Worker, say) does with the light entry: the helper's href and its key.
    const href = petition.link('std:record_signature_helper')?.url() ?? '';
    assert(href !== '', 'the petition links no record signature helper');
    const light = await recordSignature(
      href,
      { person: { given_name: 'Lee', email_addresses: [{ address: `lee.${run}@example.org` }] } },
      { apiKey: config.apiKey },
    );
    assert(light.record !== undefined, 'a call with a key got no record back');

    // What a signup page does: the href and no key; it gets `{}` back.
    const anonymous = await recordSignature(href, {
      person: { given_name: 'Sam', email_addresses: [{ address: `sam.${run}@example.org` }] },
    });
    assert(anonymous.record === undefined, 'a call without a key got a record back');
    const total = (await petition.refresh()).data.total_signatures;
    assert(total === 3, `total_signatures is ${total}, not 3`);
  },

  async 'typed errors: 404 with std:error, refused typo, 401'(config) {
    const client = await connect(config.entryPoint, { apiKey: config.apiKey });
    const petition = await client.petitions.create({ title: `Errors ${run}` });
    await petition.delete();
    const missing = await rejection(petition.refresh());
    assert(isHTTPError(missing), `not an HTTPError: ${describe(missing)}`);
    assert(missing.status === 404, `status ${missing.status}`);
    assert(errorDescriptions(missing.stdError).length > 0, 'no std:error decoded');

    // A misspelt member is refused before anything is sent.
    const typo = { title: 'Typo', descripton: 'misspelt' } as PetitionInput;
    const refused = await rejection(client.petitions.create(typo));
    assert(isSchemaValidationError(refused), `a typo was not refused: ${describe(refused)}`);

    const denied = await rejection(connect(config.entryPoint, { apiKey: 'not-a-key' }));
    assert(isHTTPError(denied) && denied.status === 401, `wrong key: ${describe(denied)}`);
  },

  async 'typed errors: network error and timeout, within the bound'(config) {
    const refused = await rejection(connect(config.closedUrl, { retry: 0 }));
    assert(isNetworkError(refused), `a closed port: ${describe(refused)}`);

    const started = Date.now();
    const slow = await rejection(connect(config.silentUrl, { timeout: 300, retry: 0 }));
    const waited = Date.now() - started;
    assert(isTimeoutError(slow), `a silent server: ${describe(slow)}`);
    assert(waited < 5_000, `the 300 ms timeout took ${waited} ms`);
  },

  async 'a 503 is retried; pages with links last are read ahead'(config) {
    let direct = 0;
    const reference = await connect(config.entryPoint, { apiKey: config.apiKey });
    for await (const page of reference.people.pages()) direct += page.items.length;
    const client = await connect(config.flakyUrl, { apiKey: config.apiKey });
    let items = 0;
    for await (const page of client.people.pages({ readAhead: true })) {
      assert(
        page.url.startsWith(new URL(config.flakyUrl).origin),
        `paged ${page.url}, not the relay`,
      );
      items += page.items.length;
    }
    assert(items === direct, `read ahead ${items} people of ${direct} behind the relay`);
  },

  async 'webhook handler: signed, deduplicated, forged refused'() {
    const received: WebhookEvent[] = [];
    const handler = webhookHandler({
      secret: WEBHOOK_SECRET,
      on: { signature: (event) => void received.push(event) },
    });
    const body = signatureDelivery(`key-${run}`);
    const first = await handler(await signedRequest(body));
    assert(first.status === 200, `a signed delivery got ${first.status}`);
    assert(received.length === 1 && received[0]?.type === 'signature', 'the event was not handled');
    const again = await handler(await signedRequest(body));
    assert(again.status === 200 && received.length === 1, 'a redelivery was handled twice');
    const forged = await handler(await signedRequest(signatureDelivery('other'), 'wrong'));
    assert(forged.status === 401, `a forged delivery got ${forged.status}`);
    const unsigned = await handler(
      new Request('https://receiver.example/webhooks', { method: 'POST', body }),
    );
    assert(unsigned.status === 401, `an unsigned delivery got ${unsigned.status}`);
  },
};

/**
 * Runs every check and reports each, never throwing: a runtime where a check cannot
 * even start still reports it as failed.
 *
 * @example
 * ```ts
 * const results = await runSuite(config);
 * console.log(results.filter((r) => !r.ok).length, 'failed');
 * ```
 */
export async function runSuite(config: SuiteConfig): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [name, check] of Object.entries(CHECKS)) {
    const started = Date.now();
    try {
      await check(config);
      results.push({ name, ok: true, ms: Date.now() - started });
    } catch (error) {
      results.push({ name, ok: false, error: describe(error), ms: Date.now() - started });
    }
  }
  return results;
}

/** The line an entry prints for the runner: a marker, then the results as JSON. */
export const RESULT_MARKER = 'ADIS-RUNTIME-RESULTS ';
