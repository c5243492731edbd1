/**
 * Curies whose href names no relation (none, an empty one, one without `{rel}`): kept by
 * name with their problem, their relations compared by name and never merged into one
 * URI, an alias to them meeting the relations written with them, and each problem
 * reported once, by the curie in force.
 */
import { describe, expect, it } from 'vitest';
import { Curies, HalDocument } from '../../src/hal/index.js';

const BASE = 'https://crm.example.net/api/v2/';
const SOUND = { name: 'crm', href: 'https://crm.example.net/rels/{rel}', templated: true };

describe('Curies.problems', () => {
  it('names each unusable curie, its place and what is wrong', () => {
    const curies = Curies.from(
      [
        { name: 'osdi' },
        SOUND,
        { name: 'org', href: '' },
        { name: 'vendor', href: 'https://crm.example.net/rels/' },
        { href: 'https://crm.example.net/{rel}' }, // no name: nothing refers to it
      ],
      BASE,
    );
    expect(curies.problems()).toEqual([
      { name: 'osdi', index: 0, problem: 'has no href' },
      { name: 'org', index: 2, problem: 'has an empty href' },
      { name: 'vendor', index: 3, problem: 'has no {rel} in its href' },
    ]);
    expect(curies.names()).toEqual(['osdi', 'crm', 'org', 'vendor']);
  });

  it('takes a single object, an href that is not a string, and {rel} with an operator', () => {
    expect(Curies.from({ name: 'osdi', href: 7 }, BASE).problems()).toEqual([
      { name: 'osdi', index: 0, problem: 'has no href' },
    ]);
    expect(Curies.from([{ name: 'a', href: 'https://x.example/{+rel}' }], BASE).problems()).toEqual(
      [],
    );
    // `{relation}` is another variable: no URI of its own per relation.
    expect(
      Curies.from([{ name: 'a', href: 'https://x.example/{relation}' }], BASE).problems(),
    ).toEqual([{ name: 'a', index: 0, problem: 'has no {rel} in its href' }]);
  });

  it('reports the curie in force only: a nearer one of the same name shadows it', () => {
    const entry = Curies.from([{ name: 'osdi', href: '' }], BASE);
    // A page repeating the entry point's curies: one problem, not two.
    expect(Curies.from([{ name: 'osdi', href: '' }], BASE, entry).problems()).toHaveLength(1);
    // A page that declares osdi soundly: none.
    const fixed = Curies.from([{ name: 'osdi', href: 'https://x.example/{rel}' }], BASE, entry);
    expect(fixed.problems()).toEqual([]);
    // A page without curies inherits the entry point's, problems included.
    expect(Curies.from(undefined, BASE, entry).problems()).toHaveLength(1);
  });
});

describe('the relations of an unusable curie', () => {
  it('are compared by name, each its own', () => {
    const curies = Curies.from([{ name: 'osdi', href: 'https://crm.example.net/docs/' }], BASE);
    expect(curies.relationId('osdi:people')).toBe('osdi:people');
    expect(curies.relationId('osdi:people')).not.toBe(curies.relationId('osdi:petitions'));
  });

  it('meet an alias to their prefix, by the curie’s name', () => {
    const curies = Curies.from([{ name: 'osdi' }, SOUND], BASE).withAlias('std', 'osdi');
    expect(curies.relationId('std:people')).toBe(curies.relationId('osdi:people'));
    expect(curies.relationId('std:people')).not.toBe(curies.relationId('osdi:petitions'));
    // The sound one still expands.
    expect(curies.relationId('crm:people')).toBe('https://crm.example.net/rels/people');
  });

  it('find their links in a document, and a missing one says why', () => {
    const document = HalDocument.parse(
      {
        _links: {
          curies: [{ name: 'osdi', href: '' }],
          'osdi:people': { href: '/api/v2/people' },
          'osdi:petitions': { href: '/api/v2/petitions' },
        },
      },
      BASE,
    );
    expect(document.link('osdi:petitions')?.url()).toBe('https://crm.example.net/api/v2/petitions');
    expect(() => document.requireLink('std:people')).toThrow(
      /the curie "osdi" \(curies\[0\]\) has an empty href, so osdi: is read by name \(curiePrefix: 'osdi' reads it as std:\)/,
    );
  });
});
