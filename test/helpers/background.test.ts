// Helper calls processed in the background (`?background_request=true`, Action
// Network's spelling): the query parameter added with the URL API (the href's own query
// kept), and an answer without a record read as "accepted" (Action Network's 200 {} as
// well as 202), never confused with a call without a key that answered {}. Both the
// light entry and the full SDK's methods, over msw.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callHelper, recordSignature } from '../../src/helpers/index.js';
import {
  connect,
  isSchemaValidationError,
  petitionKind,
  type ServerPreset,
} from '../../src/index.js';

const BASE = 'https://api.example.org/api/v1';
const PETITION = `${BASE}/petitions/p1`;
const HELPER = `${PETITION}/record_signature_helper`;
const input = { comments: 'Yes', person: { given_name: 'Ana' } };
const ACCEPTED = {
  accepted: true,
  complete: true,
  record: undefined,
  person: undefined,
  failures: [],
  error: undefined,
};

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Answers the helper (whatever its query) with `answer`, recording the URLs called. */
function helper(answer: () => Response, path = HELPER) {
  const urls: string[] = [];
  server.use(
    http.post(path, ({ request }) => {
      urls.push(request.url);
      return answer();
    }),
  );
  return urls;
}

/** An entry point and a petition whose helper link is `helperHref`. */
function petitionAt(helperHref: string) {
  server.use(
    http.get(`${BASE}/`, () =>
      HttpResponse.json({
        _links: {
          self: { href: `${BASE}/` },
          curies: [{ name: 'std', href: 'https://api.example.org/docs/{rel}', templated: true }],
          'std:petitions': { href: `${BASE}/petitions` },
        },
      }),
    ),
    http.get(PETITION, () =>
      HttpResponse.json({
        title: 'Parks',
        _links: {
          self: { href: PETITION },
          'std:record_signature_helper': { href: helperHref },
        },
      }),
    ),
  );
}

describe('background on the light entry', () => {
  it('adds background_request=true to the href, keeping its query', async () => {
    const urls = helper(() => HttpResponse.json({}, { status: 202 }));
    await recordSignature(`${HELPER}?source=mail&tag=a%20b`, input, { background: true });
    const url = new URL(urls[0] ?? '');
    expect(url.origin + url.pathname).toBe(HELPER);
    expect([...url.searchParams]).toEqual([
      ['source', 'mail'],
      ['tag', 'a b'],
      ['background_request', 'true'],
    ]);
  });

  it('replaces a background_request already in the href', async () => {
    const urls = helper(() => HttpResponse.json({}, { status: 202 }));
    await callHelper(`${HELPER}?background_request=false`, input, { background: true });
    expect(urls).toEqual([`${HELPER}?background_request=true`]);
  });

  it("sends background_request, never the undocumented background_processing, and reads Action Network's 200 {} as accepted", async () => {
    const urls = helper(() => HttpResponse.json({}, { status: 200 }));
    const result = await recordSignature(HELPER, input, { background: true });
    expect(urls).toEqual([`${HELPER}?background_request=true`]);
    expect(result).toEqual({ ...ACCEPTED, status: 200 });
  });

  it.each([
    ['202 {} (the reference server)', 202],
    ['200 {} (Action Network)', 200],
  ])('reads %s as accepted', async (_name, status) => {
    helper(() => HttpResponse.json({}, { status }));
    const result = await recordSignature(HELPER, input, { background: true, apiKey: 'k' });
    expect(result).toEqual({ ...ACCEPTED, status });
  });

  it('reads an empty 202 as accepted, even without asking', async () => {
    helper(() => new HttpResponse(null, { status: 202 }));
    expect(await recordSignature(HELPER, input)).toEqual({ ...ACCEPTED, status: 202 });
  });

  it('does not take a call without a key that answered 200 {} for an accepted one', async () => {
    const urls = helper(() => HttpResponse.json({}, { status: 200 }));
    const result = await recordSignature(HELPER, input);
    expect(result).toMatchObject({ accepted: false, status: 200, record: undefined });
    expect(urls).toEqual([HELPER]);
  });

  it('reads the record of a server that ignored the parameter', async () => {
    helper(() => HttpResponse.json({ comments: 'Yes' }, { status: 201 }));
    const result = await recordSignature(HELPER, input, { background: true });
    expect(result).toMatchObject({ accepted: false, status: 201, record: { comments: 'Yes' } });
  });

  it('narrows on accepted', async () => {
    helper(() => HttpResponse.json({}, { status: 202 }));
    const result = await recordSignature(HELPER, input, { background: true });
    if (!result.accepted) throw new Error('expected an accepted call');
    // The type says there is no record: `result.record` is `undefined`, not `Signature | undefined`.
    const none: undefined = result.record;
    expect(none).toBeUndefined();
  });
});

describe('background on the full SDK', () => {
  it('adds the query to the helper link, keeping its own, and reads 202 {} as accepted', async () => {
    petitionAt(`${HELPER}?source=mail`);
    const urls = helper(() => HttpResponse.json({}, { status: 202 }));
    const client = await connect(`${BASE}/`, { apiKey: 'k' });
    const petition = await client.petitions.get(PETITION);
    const result = await petition.recordSignature(input, { background: true });
    expect(urls).toEqual([`${HELPER}?source=mail&background_request=true`]);
    expect(result).toEqual({ ...ACCEPTED, status: 202 });
  });

  it('reads 200 {} as accepted when background was asked, and as a call without records otherwise', async () => {
    petitionAt(HELPER);
    const urls = helper(() => HttpResponse.json({}, { status: 200 }));
    const client = await connect(`${BASE}/`, { apiKey: 'k' });
    const petition = await client.petitions.get(PETITION);
    expect(await petition.recordSignature(input, { background: true })).toEqual({
      ...ACCEPTED,
      status: 200,
    });
    expect(urls).toEqual([`${HELPER}?background_request=true`]);
    expect(await petition.recordSignature(input)).toMatchObject({
      accepted: false,
      status: 200,
      record: undefined,
    });
  });

  it("sends the connection's backgroundParameter, as a preset names it", async () => {
    petitionAt(HELPER);
    const urls = helper(() => HttpResponse.json({}, { status: 202 }));
    const preset = { backgroundParameter: 'queue_it' } as const satisfies ServerPreset;
    const client = await connect(`${BASE}/`, { ...preset, apiKey: 'k' });
    const petition = await client.petitions.get(PETITION);
    expect(await petition.recordSignature(input, { background: true })).toEqual({
      ...ACCEPTED,
      status: 202,
    });
    expect(urls).toEqual([`${HELPER}?queue_it=true`]);
  });

  it('still checks the body first', async () => {
    petitionAt(HELPER);
    const urls = helper(() => HttpResponse.json({}, { status: 202 }));
    const client = await connect(`${BASE}/`, { apiKey: 'k' });
    const petition = await client.petitions.get(PETITION);
    const error = await petition
      .callHelper(petitionKind.helpers.recordSignature, { comments: 42 }, { background: true })
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(error)).toBe(true);
    expect(urls).toEqual([]);
  });
});
