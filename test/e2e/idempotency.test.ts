// Idempotency-Key and background processing end to end, against the reference server:
// a call whose answer is lost after the server wrote it is retried by the SDK with the
// same key, and the server replays the first answer instead of writing again. The SDK
// retries such a call only because the server says it honours the key
// (`Idempotency-Key-Honoured: true` on every answer, the key echoed on a keyed POST's);
// the same server with those headers removed (one that ignores the key, as far as the
// SDK can tell) gets the call once, and the caller a NetworkError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundIdle } from '../../reference-server/src/http/background.js';
import {
  type Client,
  callHelper,
  connect,
  isHTTPError,
  newIdempotencyKey,
  recordDonation,
  recordSignature,
} from '../../src/index.js';
import { type HelperFixture, startHelperFixture } from './helpers-fixture.js';

let f: HelperFixture;
beforeAll(async () => {
  f = await startHelperFixture();
});
afterAll(() => f.server.close());

/** What the lossy fetch saw: each POST's key and whether the server replayed it. */
interface Exchange {
  key: string | null;
  status: number;
  replayed: boolean;
}

/** The headers by which the reference server shows that it honours Idempotency-Key. */
const SHOWING_HEADERS = ['idempotency-key-honoured', 'idempotency-key'];

/**
 * The server's fetch, except that the answer to the first `losses` POSTs is lost after
 * the server has done the work (read and thrown away, as a connection that drops on the
 * way back): the caller sees a network error and cannot know the call was applied.
 * `silent` removes the headers that show the key is honoured from every answer.
 */
function lossyFetch(losses = 1, { silent = false } = {}) {
  const posts: Exchange[] = [];
  let toLose = losses;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    let response = await f.server.fetch(request.clone());
    if (silent) {
      const headers = new Headers(response.headers);
      for (const name of SHOWING_HEADERS) headers.delete(name);
      response = new Response(response.body, { status: response.status, headers });
    }
    if (request.method !== 'POST') return response;
    posts.push({
      key: request.headers.get('idempotency-key'),
      status: response.status,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    });
    if (toLose > 0) {
      toLose--;
      await response.arrayBuffer();
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    }
    return response;
  };
  return { fetch, posts };
}

// No email or phone: the server matches nobody, so every signature that is written is
// a new one, and a retry the server did not recognise would show as a second signature.
const unmatched = { person: { given_name: 'Ana' } };

async function lossyClient(fetch: typeof globalThis.fetch): Promise<Client> {
  // connect reads the entry point through the same fetch: that is where the SDK learns.
  return connect(f.server.entryPoint, {
    apiKey: f.server.keys.write,
    fetch,
    retry: { limit: 3, backoffLimit: 20 },
  });
}

async function totalPeople(): Promise<number> {
  const first = await f.client.people.pages().next();
  return first.value?.totalRecords ?? Number.NaN;
}

describe('a retried call is applied once', () => {
  it('writes one signature when a helper call’s answer is lost and the SDK retries (full SDK)', async () => {
    const petition = await f.client.petitions.create({ title: 'Lossy network' });
    const { fetch, posts } = lossyFetch();
    const client = await lossyClient(fetch);
    const result = await (await client.petitions.get(petition.url)).recordSignature({
      comments: 'Once',
      ...unmatched,
    });
    expect(result).toMatchObject({ accepted: false, status: 201, complete: true });
    expect(posts).toHaveLength(2);
    expect(posts[0]?.key).toBeTruthy();
    expect(posts[1]).toEqual({ key: posts[0]?.key, status: 201, replayed: true });
    // The record returned is the one the first attempt wrote.
    const signatures = await petition.signatures().toArray();
    expect(signatures.map((s) => s.url)).toEqual([result.record?.url]);
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });

  it('writes one signature from a page (light entry, no API key) told the server honours keys', async () => {
    const petition = await f.client.petitions.create({ title: 'Lossy page' });
    const href = petition.link('std:record_signature_helper')?.url() ?? '';
    const { fetch, posts } = lossyFetch();
    const result = await recordSignature(href, unmatched, { fetch, idempotencyKeysHonoured: true });
    expect(result).toMatchObject({ accepted: false, status: 200, record: undefined });
    expect(posts.map((p) => [p.key, p.replayed])).toEqual([
      [posts[0]?.key, false],
      [posts[0]?.key, true],
    ]);
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });

  it('without the key, the same lost answer is a NetworkError the caller cannot safely retry', async () => {
    const petition = await f.client.petitions.create({ title: 'No key' });
    const href = petition.link('std:record_signature_helper')?.url() ?? '';
    const { fetch, posts } = lossyFetch();
    const error = await recordSignature(href, unmatched, { fetch, idempotencyKey: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'NETWORK' });
    expect(posts).toEqual([{ key: null, status: 200, replayed: false }]);
    // The call was applied: a retry without a key would have signed a second time.
    await recordSignature(href, unmatched, { fetch: f.server.fetch, idempotencyKey: false });
    expect((await petition.refresh()).data.total_signatures).toBe(2);
  });

  it('writes one person when a create’s answer is lost twice', async () => {
    const before = await totalPeople();
    const { fetch, posts } = lossyFetch(2);
    const client = await lossyClient(fetch);
    const created = await client.people.create({ given_name: 'Replayed', family_name: 'Once' });
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((p) => p.key)).size).toBe(1);
    expect(posts.map((p) => p.replayed)).toEqual([false, true, true]);
    expect(await totalPeople()).toBe(before + 1);
    expect((await f.client.people.get(created.url)).data.family_name).toBe('Once');
  });

  it('recognises a whole job run again with its own key', async () => {
    const page = await f.client.fundraisingPages.create({ title: 'Job queue' });
    const href = page.link('std:record_donation_helper')?.url() ?? '';
    const job = { id: newIdempotencyKey(), body: { amount: 5, currency: 'USD', ...unmatched } };
    const options = { apiKey: f.server.keys.write, fetch: f.server.fetch };
    const first = await recordDonation(href, job.body, { ...options, idempotencyKey: job.id });
    // The worker died before marking the job done; the queue runs it again.
    const again = await recordDonation(href, job.body, { ...options, idempotencyKey: job.id });
    expect(again.record).toEqual(first.record);
    expect((await page.refresh()).data.total_donations).toBe(1);
  });

  it('refuses the same key with another body: 422 IDEMPOTENCY_KEY_REUSED, not retried', async () => {
    const petition = await f.client.petitions.create({ title: 'Reused key' });
    const href = petition.link('std:record_signature_helper')?.url() ?? '';
    const idempotencyKey = newIdempotencyKey();
    await callHelper(href, { comments: 'first', ...unmatched }, { ...f.keyed, idempotencyKey });
    const error = await callHelper(
      href,
      { comments: 'second', ...unmatched },
      { ...f.keyed, idempotencyKey },
    ).catch((e: unknown) => e);
    expect(isHTTPError(error)).toBe(true);
    expect(error).toMatchObject({ status: 422 });
    expect(
      (
        error as {
          stdError?: { resource_status: { error_descriptions: { error_code: string }[] }[] };
        }
      ).stdError?.resource_status[0]?.error_descriptions[0]?.error_code,
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });
});

describe('a server not known to honour the key gets a lost call once', () => {
  it('the reference server says it honours keys: on the entry point, and echoing a POST’s key', async () => {
    const entry = await f.server.fetch(
      new Request(f.server.entryPoint, { headers: { 'STD-API-Token': f.server.keys.write } }),
    );
    expect(entry.headers.get('idempotency-key-honoured')).toBe('true');
    const petition = await f.client.petitions.create({ title: 'Echo' });
    const href = petition.link('std:record_signature_helper')?.url() ?? '';
    const { fetch, posts } = lossyFetch(0);
    const idempotencyKey = newIdempotencyKey();
    let echoed: string | null = null;
    await recordSignature(href, unmatched, {
      idempotencyKey,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        echoed = response.headers.get('idempotency-key');
        return response;
      },
    });
    expect(posts).toHaveLength(1);
    expect(echoed).toBe(idempotencyKey);
  });

  it('full SDK: a helper call whose answer was lost is a NetworkError, and the server saw one POST', async () => {
    const petition = await f.client.petitions.create({ title: 'Silent server' });
    const { fetch, posts } = lossyFetch(1, { silent: true });
    const client = await lossyClient(fetch);
    const error = await (await client.petitions.get(petition.url))
      .recordSignature({ comments: 'Once', ...unmatched })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK' });
    expect(posts).toHaveLength(1);
    expect(posts[0]?.key).toBeTruthy();
    // Applied once: the caller decides what to do about an outcome it cannot know.
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });

  it('full SDK: a create whose answer was lost is not sent again', async () => {
    const before = await totalPeople();
    const { fetch, posts } = lossyFetch(1, { silent: true });
    const client = await lossyClient(fetch);
    const error = await client.people
      .create({ given_name: 'Silent', family_name: 'Once' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK' });
    expect(posts).toHaveLength(1);
    expect(await totalPeople()).toBe(before + 1);
  });

  it('light entry, by default: the lost helper call is sent once', async () => {
    const petition = await f.client.petitions.create({ title: 'Page, default' });
    const href = petition.link('std:record_signature_helper')?.url() ?? '';
    const { fetch, posts } = lossyFetch();
    const error = await recordSignature(href, unmatched, { fetch }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK' });
    expect(posts.map((p) => p.replayed)).toEqual([false]);
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });
});

describe('background processing', () => {
  // The server's accepted work, done and committed: awaited, however loaded the machine.
  const backgroundDone = () => backgroundIdle(f.server.storage!);

  it('accepts a signature (202 {}), which then appears (full SDK)', async () => {
    const petition = await f.client.petitions.create({ title: 'Later' });
    const result = await petition.recordSignature(
      { comments: 'In the background', ...unmatched },
      { background: true },
    );
    expect(result).toEqual({
      accepted: true,
      status: 202,
      complete: true,
      record: undefined,
      person: undefined,
      failures: [],
      error: undefined,
    });
    await backgroundDone();
    expect((await petition.refresh()).data.total_signatures).toBe(1);
    const [signature] = await petition.signatures().toArray();
    expect(signature?.data.comments).toBe('In the background');
  });

  it('accepts a signature from a page (light entry), which then appears', async () => {
    const petition = await f.client.petitions.create({ title: 'Later, from a page' });
    const href = petition.link('std:record_signature_helper')?.url() ?? '';
    const result = await recordSignature(href, unmatched, { ...f.anonymous, background: true });
    expect(result).toMatchObject({ accepted: true, status: 202, record: undefined });
    await backgroundDone();
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });
});
