import { describe, expect, it } from 'vitest';
import { Curies, HalDocument } from '../../src/hal/index.js';
import type { HttpRequest, Transport } from '../../src/http/transport.js';
import { NavigatorContext } from '../../src/navigator/context.js';
import { AttendanceResource } from '../../src/resources/attendance.js';
import { canvassKind } from '../../src/resources/canvass.js';
import { donationKind } from '../../src/resources/donation.js';
import { PersonResource, personKind } from '../../src/resources/person-resource.js';
import { PetitionResource, petitionKind } from '../../src/resources/petition.js';
import { queryKind } from '../../src/resources/query.js';
import { SignatureResource, signatureKind } from '../../src/resources/signature.js';
import { TagResource } from '../../src/resources/tag.js';
import { taggingKind } from '../../src/resources/tagging.js';

const BASE = 'https://api.example.org/api/v1';

/** A transport that answers GETs from `bodies` and records the URLs asked for. */
function fakeContext(bodies: Record<string, unknown> = {}) {
  const asked: string[] = [];
  const transport: Transport = {
    async request(request: HttpRequest) {
      asked.push(request.url);
      const body = bodies[request.url];
      if (body === undefined) throw new Error(`unexpected request for ${request.url}`);
      return { status: 200, url: request.url, headers: new Headers(), body };
    },
    trustOrigin: () => undefined,
    isTrusted: () => true,
  };
  return { context: new NavigatorContext(transport, Curies.none, true), asked };
}

const self = (path: string) => ({ self: { href: `${BASE}/${path}` } });

describe('tagging relations', () => {
  it('returns the embedded target typed by its kind, without a request', async () => {
    const { context, asked } = fakeContext();
    const tagging = taggingKind.wrap(
      context,
      HalDocument.parse(
        {
          item_type: 'person',
          _links: { ...self('taggings/1'), 'std:person': { href: `${BASE}/people/1` } },
          _embedded: { 'std:person': { given_name: 'Ana', _links: self('people/1') } },
        },
        `${BASE}/taggings/1`,
      ),
    );
    const target = await tagging.target();
    expect(target).toBeInstanceOf(PersonResource);
    expect(target?.url).toBe(`${BASE}/people/1`);
    expect(asked).toEqual([]);
  });

  it('fetches a linked target and its tag', async () => {
    const { context, asked } = fakeContext({
      [`${BASE}/petitions/7`]: { title: 'Save the park', _links: self('petitions/7') },
      [`${BASE}/tags/2`]: { name: 'priority', _links: self('tags/2') },
    });
    const tagging = taggingKind.wrap(
      context,
      HalDocument.parse(
        {
          _links: {
            ...self('taggings/1'),
            'std:tag': { href: `${BASE}/tags/2` },
            'std:petition': { href: `${BASE}/petitions/7` },
          },
        },
        `${BASE}/taggings/1`,
      ),
    );
    const target = await tagging.target();
    expect(target).toBeInstanceOf(PetitionResource);
    const tag = await tagging.tag();
    expect(tag).toBeInstanceOf(TagResource);
    expect(tag.data.name).toBe('priority');
    expect(asked).toEqual([`${BASE}/petitions/7`, `${BASE}/tags/2`]);
    expect(await tagging.canvass()).toBeUndefined();
  });

  it('has no target when it links none', async () => {
    const { context } = fakeContext();
    const tagging = taggingKind.wrap(
      context,
      HalDocument.parse({ _links: self('taggings/1') }, `${BASE}/taggings/1`),
    );
    expect(await tagging.target()).toBeUndefined();
  });
});

describe('person collections', () => {
  it('reads std:attendance as the attendances relation and types the records', async () => {
    const { context } = fakeContext({
      [`${BASE}/people/1/attendances`]: {
        _embedded: {
          'std:attendances': [{ status: 'accepted', _links: self('attendances/3') }],
        },
      },
    });
    const person = personKind.wrap(
      context,
      HalDocument.parse(
        {
          given_name: 'Ana',
          _links: {
            ...self('people/1'),
            'std:attendance': { href: `${BASE}/people/1/attendances` },
          },
        },
        `${BASE}/people/1`,
      ),
    );
    const [attendance] = await person.attendances().toArray();
    expect(attendance).toBeInstanceOf(AttendanceResource);
    expect(attendance?.data.status).toBe('accepted');
  });

  it('pages an embedded first page of signatures as typed signatures', async () => {
    const { context, asked } = fakeContext();
    const person = personKind.wrap(
      context,
      HalDocument.parse(
        {
          _links: { ...self('people/1'), 'std:signatures': { href: `${BASE}/people/1/sigs` } },
          _embedded: {
            'std:signatures': {
              _links: self('people/1/sigs'),
              _embedded: {
                'std:signatures': [{ comments: 'Yes', _links: self('signatures/9') }],
              },
            },
          },
        },
        `${BASE}/people/1`,
      ),
    );
    const signatures = await person.signatures().toArray();
    expect(signatures.map((s) => s instanceof SignatureResource && s.data.comments)).toEqual([
      'Yes',
    ]);
    expect(asked).toEqual([]);
  });
});

describe('action relations', () => {
  it('leaves optional relations undefined and follows required ones', async () => {
    const { context } = fakeContext({
      [`${BASE}/people/1`]: { given_name: 'Ana', _links: self('people/1') },
    });
    const signature = signatureKind.wrap(
      context,
      HalDocument.parse(
        { _links: { ...self('signatures/9'), 'std:person': { href: `${BASE}/people/1` } } },
        `${BASE}/signatures/9`,
      ),
    );
    expect(await signature.organization()).toBeUndefined();
    expect((await signature.person()).data.given_name).toBe('Ana');
    await expect(signature.petition()).rejects.toThrow(/std:petition/);
  });

  it('follows a donation to the attendance it paid for', async () => {
    const { context } = fakeContext({
      [`${BASE}/attendances/3`]: { status: 'accepted', _links: self('attendances/3') },
    });
    const donation = donationKind.wrap(
      context,
      HalDocument.parse(
        {
          amount: '15',
          _links: { ...self('donations/5'), 'std:attendance': { href: `${BASE}/attendances/3` } },
        },
        `${BASE}/donations/5`,
      ),
    );
    expect(donation.data.amount).toBe(15);
    expect(await donation.attendance()).toBeInstanceOf(AttendanceResource);
    expect(await donation.submission()).toBeUndefined();
  });

  it('uses the spec plural names', () => {
    expect([canvassKind.plural, queryKind.plural, taggingKind.singular]).toEqual([
      'canvasses',
      'queries',
      'tagging',
    ]);
  });
});

describe('embedded collection pages', () => {
  it('pages from an embedded first page without self, but addresses the collection by its link', async () => {
    const signaturesUrl = `${BASE}/petitions/7/signatures`;
    const { context, asked } = fakeContext({
      [`${signaturesUrl}?page=2`]: {
        page: 2,
        _embedded: { 'std:signatures': [{ comments: 'second', _links: self('signatures/2') }] },
      },
    });
    const petition = new PetitionResource(
      context,
      HalDocument.parse(
        {
          title: 'Save the park',
          _links: { ...self('petitions/7'), 'std:signatures': { href: signaturesUrl } },
          _embedded: {
            // A first page without a self link of its own.
            'std:signatures': {
              page: 1,
              _links: { next: { href: `${signaturesUrl}?page=2` } },
              _embedded: {
                'std:signatures': [{ comments: 'first', _links: self('signatures/1') }],
              },
            },
          },
        },
        `${BASE}/petitions/7`,
      ),
      petitionKind,
    );
    const signatures = petition.signatures();
    const comments = (await signatures.toArray()).map((s) => s.data.comments);
    expect(comments).toEqual(['first', 'second']);
    expect(asked).toEqual([`${signaturesUrl}?page=2`]);
    expect(await signatures.url()).toBe(signaturesUrl);
  });
});
