import { describe, expect, it } from 'vitest';
import { Curies, HalDocument } from '../../src/hal/index.js';
import type { HttpRequest, Transport } from '../../src/http/transport.js';
import { NavigatorContext } from '../../src/navigator/context.js';
import { isResourceOf } from '../../src/navigator/resource.js';
import type {
  DonationResource,
  PersonResource,
  PetitionResource,
  SignatureResource,
  TaggingResource,
} from '../../src/navigator/resources.js';
import { amountValue } from '../../src/schema/action-fields.js';
import { attendanceKind } from '../../src/schema/kinds/attendance.js';
import { canvassKind } from '../../src/schema/kinds/canvass.js';
import { donationKind } from '../../src/schema/kinds/donation.js';
import { KINDS } from '../../src/schema/kinds/index.js';
import { personKind } from '../../src/schema/kinds/person.js';
import { petitionKind } from '../../src/schema/kinds/petition.js';
import { queryKind } from '../../src/schema/kinds/query.js';
import { signatureKind } from '../../src/schema/kinds/signature.js';
import { tagKind } from '../../src/schema/kinds/tag.js';
import { taggingKind } from '../../src/schema/kinds/tagging.js';

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
  return { context: new NavigatorContext(transport, Curies.none, true, 'std', KINDS), asked };
}

const self = (path: string) => ({ self: { href: `${BASE}/${path}` } });

describe('tagging relations', () => {
  it('returns the embedded target typed by its kind, without a request', async () => {
    const { context, asked } = fakeContext();
    const tagging = context.wrap(
      taggingKind,
      HalDocument.parse(
        {
          item_type: 'person',
          _links: { ...self('taggings/1'), 'std:person': { href: `${BASE}/people/1` } },
          _embedded: { 'std:person': { given_name: 'Ana', _links: self('people/1') } },
        },
        `${BASE}/taggings/1`,
      ),
    ) as TaggingResource;
    const target = await tagging.target();
    expect(isResourceOf(target, personKind)).toBe(true);
    expect(target?.url).toBe(`${BASE}/people/1`);
    expect(asked).toEqual([]);
  });

  it('fetches a linked target and its tag', async () => {
    const { context, asked } = fakeContext({
      [`${BASE}/petitions/7`]: { title: 'Save the park', _links: self('petitions/7') },
      [`${BASE}/tags/2`]: { name: 'priority', _links: self('tags/2') },
    });
    const tagging = context.wrap(
      taggingKind,
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
    ) as TaggingResource;
    const target = await tagging.target();
    expect(isResourceOf(target, petitionKind)).toBe(true);
    const tag = await tagging.tag();
    expect(isResourceOf(tag, tagKind)).toBe(true);
    expect(tag.data.name).toBe('priority');
    expect(asked).toEqual([`${BASE}/petitions/7`, `${BASE}/tags/2`]);
    expect(await tagging.canvass()).toBeUndefined();
  });

  it('has no target when it links none', async () => {
    const { context } = fakeContext();
    const tagging = context.wrap(
      taggingKind,
      HalDocument.parse({ _links: self('taggings/1') }, `${BASE}/taggings/1`),
    ) as TaggingResource;
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
    const person = context.wrap(
      personKind,
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
    ) as PersonResource;
    const [attendance] = await person.attendances().toArray();
    expect(isResourceOf(attendance, attendanceKind)).toBe(true);
    expect(attendance?.data.status).toBe('accepted');
  });

  it('pages an embedded first page of signatures as typed signatures', async () => {
    const { context, asked } = fakeContext();
    const person = context.wrap(
      personKind,
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
    ) as PersonResource;
    const signatures = await person.signatures().toArray();
    expect(signatures.map((s) => isResourceOf(s, signatureKind) && s.data.comments)).toEqual([
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
    const signature = context.wrap(
      signatureKind,
      HalDocument.parse(
        { _links: { ...self('signatures/9'), 'std:person': { href: `${BASE}/people/1` } } },
        `${BASE}/signatures/9`,
      ),
    ) as SignatureResource;
    expect(await signature.organization()).toBeUndefined();
    expect((await signature.person()).data.given_name).toBe('Ana');
    await expect(signature.petition()).rejects.toThrow(/std:petition/);
  });

  it('follows a donation to the attendance it paid for', async () => {
    const { context } = fakeContext({
      [`${BASE}/attendances/3`]: { status: 'accepted', _links: self('attendances/3') },
    });
    const donation = context.wrap(
      donationKind,
      HalDocument.parse(
        {
          amount: '15',
          _links: { ...self('donations/5'), 'std:attendance': { href: `${BASE}/attendances/3` } },
        },
        `${BASE}/donations/5`,
      ),
    ) as DonationResource;
    // Money is read as the server wrote it; amountValue gives the number.
    expect(donation.data.amount).toBe('15');
    expect(amountValue(donation.data.amount)).toBe(15);
    expect(isResourceOf(await donation.attendance(), attendanceKind)).toBe(true);
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
    const petition = context.wrap(
      petitionKind,
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
    ) as PetitionResource;
    const signatures = petition.signatures();
    const comments = (await signatures.toArray()).map((s) => s.data.comments);
    expect(comments).toEqual(['first', 'second']);
    expect(asked).toEqual([`${signaturesUrl}?page=2`]);
    expect(await signatures.url()).toBe(signaturesUrl);
  });
});
