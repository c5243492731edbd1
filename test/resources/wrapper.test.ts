import { describe, expect, it } from 'vitest';
import { wrapperKind } from '../../src/schema/kinds/wrapper.js';
import { fixture, href } from './content-fixtures.js';
import { issuePaths, issuesOf } from './schema-issues.js';

describe('wrapper', () => {
  it('reads any wrapper_type and a string default', () => {
    const wrapper = wrapperKind.schema.parse({
      wrapper_type: 'push',
      default: 'true',
      theme: 'dark',
    });
    expect(wrapper).toMatchObject({ wrapper_type: 'push', default: true, theme: 'dark' });
  });

  it('accepts a complete wrapper on write', () => {
    expect(
      issuePaths(wrapperKind.writeSchema, {
        identifiers: ['mailer:w1'],
        origin_system: 'Mailer',
        name: 'Newsletter',
        header: '<img src="logo.png">',
        footer: '<a href="{unsubscribe_url}">Unsubscribe</a>',
        administrative_url: 'https://admin.example.org/wrappers/1',
        wrapper_type: 'sms',
        default: false,
        created_date: '2026-01-01T00:00:00Z',
        _links: { 'std:creator': href('people/1') },
      }),
    ).toEqual([]);
    expect(wrapperKind.readOnly).toContain('modified_date');
  });

  it('refuses other wrapper types, a string default and unknown members', () => {
    const wrapper = { wrapper_type: 'Email', default: 'true', title: 'x' };
    expect(issuesOf(wrapperKind.strictSchema, wrapper)).toEqual([
      { path: 'wrapper_type', code: 'invalid_value', rule: undefined },
      { path: 'default', code: 'invalid_type', rule: undefined },
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
    // The type's vocabulary is the server's; a wrong JSON type and an unknown member are not.
    expect(issuesOf(wrapperKind.writeSchema, wrapper)).toEqual([
      { path: 'default', code: 'invalid_type', rule: undefined },
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
  });

  it('links its creator, editor and taggings', async () => {
    const { resource: wrapper } = fixture(wrapperKind, 'wrappers/1', {
      _links: { 'std:taggings': href('wrappers/1/taggings') },
      _embedded: {
        'std:creator': { given_name: 'Ana' },
        'std:modified_by': { given_name: 'Bo' },
      },
    });
    expect((await wrapper.creator())?.data.given_name).toBe('Ana');
    expect((await wrapper.modifiedBy())?.data.given_name).toBe('Bo');
    expect(await wrapper.taggings().url()).toBe(href('wrappers/1/taggings').href);
  });
});
