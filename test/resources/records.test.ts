import { describe, expect, it } from 'vitest';
import { itemKind } from '../../src/schema/kinds/item.js';
import { listKind } from '../../src/schema/kinds/list.js';
import {
  MessageNoticeSchema,
  MessageScheduleSchema,
  messageKind,
} from '../../src/schema/kinds/message.js';
import { queryKind } from '../../src/schema/kinds/query.js';
import { tagKind } from '../../src/schema/kinds/tag.js';
import { TAGGING_TARGET_RELATIONS, taggingKind } from '../../src/schema/kinds/tagging.js';
import { RuleCode } from '../../src/schema/rules.js';
import { issuePaths, issuesOf } from './schema-issues.js';

const link = (path: string) => ({ href: `https://api.example.org/api/v1/${path}` });

describe('tag', () => {
  it('reads any name and keeps unknown members', () => {
    expect(tagKind.schema.parse({ name: ' x ', color: 'red' })).toEqual({
      name: ' x ',
      color: 'red',
    });
  });

  it('stores names trimmed and refuses blank ones on the server', () => {
    expect(tagKind.strictSchema.parse({ name: '  volunteer ' }).name).toBe('volunteer');
    expect(issuePaths(tagKind.strictSchema, { name: '   ' })).toEqual(['name']);
    // The SDK sends the name as given (what was read goes back unchanged) and checks its type.
    expect(tagKind.writeSchema.parse({ name: '  volunteer ' }).name).toBe('  volunteer ');
    expect(issuePaths(tagKind.writeSchema, { name: '   ' })).toEqual([]);
    expect(issuePaths(tagKind.writeSchema, { name: 3, colour: 'red' })).toEqual(['name', '']);
  });

  it('leaves name optional, for partial updates, and accepts read-only members', () => {
    expect(
      issuePaths(tagKind.writeSchema, {
        description: 'Signed up to volunteer',
        origin_system: 'CRM',
        created_date: '2026-01-01T00:00:00Z',
        _links: { self: link('tags/1') },
      }),
    ).toEqual([]);
  });
});

describe('tagging', () => {
  it('reads item_type as any string', () => {
    expect(taggingKind.schema.parse({ item_type: 'event' }).item_type).toBe('event');
  });

  it('treats item_type as computed: accepted on write, listed read-only', () => {
    expect(
      issuePaths(taggingKind.writeSchema, { item_type: 'person', origin_system: 'x' }),
    ).toEqual([]);
    expect(taggingKind.readOnly).toContain('item_type');
  });

  it('accepts a tag and one target, refuses two targets', () => {
    expect(
      issuePaths(taggingKind.writeSchema, {
        _links: { 'std:tag': link('tags/1'), 'std:person': link('people/1') },
      }),
    ).toEqual([]);
    const twoTargets = {
      _links: { 'std:person': link('people/1'), 'std:petition': link('petitions/1') },
    };
    expect(issuesOf(taggingKind.strictSchema, twoTargets)).toEqual([
      { path: '_links', code: 'custom', rule: undefined },
    ]);
    // The rule is the server's: the SDK sends the tagging and lets it judge.
    expect(issuesOf(taggingKind.writeSchema, twoTargets)).toEqual([]);
  });

  it('reports the one-target rule together with other problems', () => {
    const tagging = {
      origin_system: 5,
      _links: { 'std:form': link('forms/1'), 'std:wrapper': link('wrappers/1') },
    };
    expect(issuePaths(taggingKind.strictSchema, tagging)).toEqual(['origin_system', '_links']);
    expect(issuePaths(taggingKind.writeSchema, tagging)).toEqual(['origin_system']);
  });

  it('lists every target relation a tagging may have', () => {
    expect(TAGGING_TARGET_RELATIONS).toEqual([
      'std:person',
      'std:organization',
      'std:petition',
      'std:form',
      'std:fundraising_page',
      'std:share_page',
      'std:wrapper',
    ]);
  });
});

describe('list and item', () => {
  it('reads total_items from a numeric string and ignores it on write', () => {
    expect(listKind.schema.parse({ name: 'volunteers', total_items: '42' }).total_items).toBe(42);
    expect(
      issuePaths(listKind.writeSchema, {
        name: 'volunteers',
        title: 'Volunteers',
        description: 'Everyone who offered help',
        summary: 'Volunteers',
        origin_system: 'CRM',
        browser_url: 'https://example.org/lists/volunteers',
        administrative_url: 'https://admin.example.org/lists/7',
        total_items: 42,
      }),
    ).toEqual([]);
    expect(listKind.readOnly).toContain('total_items');
  });

  it('refuses unknown members and wrong types', () => {
    expect(issuePaths(listKind.writeSchema, { name: 1, members: [] })).toEqual(['name', '']);
    expect(issuePaths(itemKind.writeSchema, { origin_system: 2, person: 'x' })).toEqual([
      'origin_system',
      '',
    ]);
  });

  it('reads item_type and accepts it back on write', () => {
    expect(itemKind.schema.parse({ item_type: 'person' }).item_type).toBe('person');
    expect(
      issuePaths(itemKind.writeSchema, {
        item_type: 'person',
        _links: { 'std:person': link('p/1') },
      }),
    ).toEqual([]);
  });
});

describe('query', () => {
  it('keeps a filter expression and refuses one that is not a string', () => {
    const filter = "modified_date gt '2026-01-01T00:00:00Z'";
    expect(queryKind.schema.parse({ name: 'recent', filter }).filter).toBe(filter);
    expect(issuePaths(queryKind.writeSchema, { name: 'recent', filter })).toEqual([]);
    expect(issuePaths(queryKind.writeSchema, { filter: { modified_date: 'x' } })).toEqual([
      'filter',
    ]);
  });
});

describe('message', () => {
  it('reads open statuses and types, numeric string totals, and scheduled_end_date', () => {
    const message = messageKind.schema.parse({
      status: 'queued',
      type: 'push',
      total_targeted: '1200',
      scheduled_end_date: '2026-05-02T00:00:00Z',
    });
    expect(message).toMatchObject({
      status: 'queued',
      type: 'push',
      total_targeted: 1200,
      scheduled_stop_date: '2026-05-02T00:00:00Z',
      scheduled_end_date: '2026-05-02T00:00:00Z',
    });
    expect(
      messageKind.schema.parse({
        scheduled_stop_date: '2026-05-03T00:00:00Z',
        scheduled_end_date: '2026-05-02T00:00:00Z',
      }).scheduled_stop_date,
    ).toBe('2026-05-03T00:00:00Z');
  });

  it('accepts a message with its computed members, which are read-only', () => {
    expect(
      issuePaths(messageKind.writeSchema, {
        name: 'May newsletter',
        subject: 'Clean-up on Saturday',
        body: '<p>Bring gloves</p>',
        from: 'Friends of the Park <news@example.org>',
        reply_to: 'news@example.org',
        type: 'sms',
        status: 'sent',
        scheduled_start_date: '2026-05-01T09:00:00Z',
        sent_start_date: '2026-05-01T09:00:02Z',
        total_targeted: 1200,
        total_sent: 1199,
        _links: { 'std:wrapper': link('wrappers/1'), 'std:list': link('lists/1') },
      }),
    ).toEqual([]);
    for (const member of ['status', 'scheduled_start_date', 'scheduled_stop_date', 'total_sent']) {
      expect(messageKind.readOnly).toContain(member);
    }
  });

  it('refuses a reply_to that is not an email address and unknown members', () => {
    const message = { reply_to: 'news', recipients: [] };
    expect(issuePaths(messageKind.strictSchema, message)).toEqual(['reply_to', '']);
    // The address's format is the server's to judge; the unknown member is refused here.
    expect(issuePaths(messageKind.writeSchema, message)).toEqual(['']);
  });

  it('writes targets as links to queries or lists (as Action Network targets a message)', () => {
    const targets = [{ href: 'https://api.example.org/api/v1/queries/1' }];
    expect(issuePaths(messageKind.writeSchema, { targets })).toEqual([]);
    expect(issuePaths(messageKind.writeSchema, { targets: [{ link: 'x' }] })).toEqual([
      'targets.0',
    ]);
  });
});

describe('message schedule helper body', () => {
  const start = '2026-05-01T09:00:00Z';

  it('sends scheduled_end_date as scheduled_stop_date', () => {
    expect(
      MessageScheduleSchema.parse({
        scheduled_start_date: start,
        scheduled_end_date: '2026-05-01T21:00:00Z',
      }),
    ).toEqual({ scheduled_start_date: start, scheduled_stop_date: '2026-05-01T21:00:00Z' });
    expect(MessageScheduleSchema.parse({ scheduled_start_date: start })).toEqual({
      scheduled_start_date: start,
    });
    expect(
      MessageScheduleSchema.parse({
        scheduled_start_date: start,
        scheduled_stop_date: '2026-05-01T21:00:00Z',
        scheduled_end_date: '2026-05-01T23:00:00+02:00',
      }),
    ).toEqual({ scheduled_start_date: start, scheduled_stop_date: '2026-05-01T21:00:00Z' });
  });

  it('refuses two different stops', () => {
    expect(
      issuePaths(MessageScheduleSchema, {
        scheduled_start_date: start,
        scheduled_stop_date: '2026-05-01T21:00:00Z',
        scheduled_end_date: '2026-05-01T22:00:00Z',
      }),
    ).toEqual(['scheduled_end_date']);
  });

  it('refuses a stop that is not after the start, with the rule code', () => {
    for (const stop of ['2026-05-01T08:00:00Z', start, '2026-05-01T10:00:00+01:00']) {
      expect(
        issuesOf(MessageScheduleSchema, { scheduled_start_date: start, scheduled_stop_date: stop }),
      ).toEqual([
        { path: 'scheduled_start_date', code: 'custom', rule: RuleCode.START_DATE_AFTER_END_DATE },
      ]);
    }
  });

  it('requires an ISO 8601 start and refuses unknown members', () => {
    expect(issuePaths(MessageScheduleSchema, {})).toEqual(['scheduled_start_date']);
    expect(
      issuePaths(MessageScheduleSchema, { scheduled_start_date: '2026-05-01 09:00', at: 1 }),
    ).toEqual(['scheduled_start_date', '']);
  });
});

describe('message helper answer', () => {
  it('reads a notice, an empty object and extra members', () => {
    expect(MessageNoticeSchema.parse({ notice: 'Message scheduled' }).notice).toBe(
      'Message scheduled',
    );
    expect(MessageNoticeSchema.parse({})).toEqual({});
    expect(MessageNoticeSchema.parse({ notice: 'ok', id: 3 })).toEqual({ notice: 'ok', id: 3 });
  });
});
