import { describe, expect, it } from 'vitest';
import {
  helperHref,
  InvalidLinkError,
  isInvalidLinkError,
  isLinkNotFoundError,
  LinkNotFoundError,
} from '../../src/helpers/index.js';

const SELF = 'https://api.example.org/api/v1/petitions/7';
const HELPER = `${SELF}/record_signature_helper`;

/** A petition's JSON as a server with curie `prefix` sends it. */
function petition(prefix: string, links: Record<string, unknown> = {}) {
  return {
    title: 'Save Elm Park',
    _links: {
      self: { href: SELF },
      curies: [{ name: prefix, href: 'https://api.example.org/docs/v1/{rel}', templated: true }],
      [`${prefix}:signatures`]: { href: `${SELF}/signatures` },
      [`${prefix}:record_signature_helper`]: { href: HELPER },
      ...links,
    },
  };
}

describe('helperHref', () => {
  it.each(['std', 'osdi', 'acme'])(
    'reads the helper link whatever the curie prefix (%s)',
    (prefix) => {
      expect(helperHref(petition(prefix), 'record_signature_helper')).toBe(HELPER);
      // A prefixed name is accepted too; its prefix does not have to be the server's.
      expect(helperHref(petition(prefix), 'std:record_signature_helper')).toBe(HELPER);
    },
  );

  it('reads a relation without prefix, and the first link of a list', () => {
    const resource = {
      _links: { self: { href: SELF }, record_attendance_helper: [{ href: 'a' }, { href: 'b' }] },
    };
    expect(helperHref(resource, 'record_attendance_helper')).toBe(
      'https://api.example.org/api/v1/petitions/a',
    );
  });

  it('prefers a prefix the resource declares when several relations match', () => {
    const resource = petition('osdi', { 'x:record_signature_helper': { href: `${SELF}/other` } });
    expect(helperHref(resource, 'record_signature_helper')).toBe(HELPER);
    const undeclaredFirst = {
      _links: {
        self: { href: SELF },
        'x:record_signature_helper': { href: `${SELF}/other` },
        'osdi:record_signature_helper': { href: HELPER },
        curies: { name: 'osdi', href: 'https://api.example.org/docs/{rel}', templated: true },
      },
    };
    expect(helperHref(undeclaredFirst, 'record_signature_helper')).toBe(HELPER);
  });

  it('resolves a relative href against the self link', () => {
    const resource = petition('std', { 'std:record_signature_helper': { href: 'sign' } });
    expect(helperHref(resource, 'record_signature_helper')).toBe(
      'https://api.example.org/api/v1/petitions/sign',
    );
  });

  it('does not take a full relation URI for a compact one', () => {
    const resource = {
      _links: {
        self: { href: SELF },
        'https://x.example/record_signature_helper': { href: HELPER },
      },
    };
    expect(() => helperHref(resource, 'record_signature_helper')).toThrow(LinkNotFoundError);
  });

  it('throws a LinkNotFoundError naming the relations present', () => {
    const error = catchError(() => helperHref(petition('osdi'), 'record_attendance_helper'));
    expect(isLinkNotFoundError(error)).toBe(true);
    if (!isLinkNotFoundError(error)) return;
    expect(error.rel).toBe('record_attendance_helper');
    expect(error.url).toBe(SELF);
    expect(error.available).toEqual([
      'self',
      'curies',
      'osdi:signatures',
      'osdi:record_signature_helper',
    ]);
    expect(error.message).toContain('osdi:record_signature_helper');
  });

  it.each([
    ['null', null],
    ['a string', 'https://api.example.org/api/v1/petitions/7'],
    ['an array', [petition('std')]],
    ['an object without _links', { title: 'x' }],
  ])('throws a LinkNotFoundError for %s', (_, value) => {
    const error = catchError(() => helperHref(value, 'record_signature_helper'));
    expect(error).toBeInstanceOf(LinkNotFoundError);
    expect((error as LinkNotFoundError).available).toEqual([]);
  });

  it.each([
    ['a template', { href: `${SELF}/{helper}`, templated: true }, /URI template/],
    ['not http(s)', { href: 'javascript:alert(1)' }, /not an http\(s\) URL/],
  ])('throws an InvalidLinkError for a link that is %s', (_, link, reason) => {
    const resource = petition('std', { 'std:record_signature_helper': link });
    const error = catchError(() => helperHref(resource, 'record_signature_helper'));
    expect(error).toBeInstanceOf(InvalidLinkError);
    if (!isInvalidLinkError(error)) return;
    expect(error.rel).toBe('std:record_signature_helper');
    expect(error.documentUrl).toBe(SELF);
    expect(error.reason).toMatch(reason);
  });

  it('throws an InvalidLinkError for a relative href without a self link to resolve it', () => {
    const resource = { _links: { 'std:record_signature_helper': { href: 'sign' } } };
    const error = catchError(() => helperHref(resource, 'record_signature_helper'));
    expect(isInvalidLinkError(error) && error.reason).toMatch(/relative, and the resource has no/);
    expect(error).toHaveProperty('documentUrl', undefined);
  });
});

function catchError(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
