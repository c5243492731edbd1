/**
 * Every resource kind of the specification, as the reference server serves it: each
 * built from the SDK's declaration of the kind (`adis-sdk/schema`: its names, write
 * schema, read-only members, relations and helpers, so the links each record carries
 * are the relations the SDK follows) plus the server's own rules — which totals it adds
 * to, the rules that need other records, what it derives, how it is found.
 * `docs/resources.md` explains each choice the specification leaves open.
 */
import { KINDS, type KindName, TAGGING_TARGET_TYPES } from 'adis-sdk/schema';
import type { Contribution, JsonObject, LookupKey, ParentRef } from '../storage/storage.js';
import { type ServerRules, serveKind } from './define-kind.js';
import { ApiError, ErrorCode, type ErrorDescription } from './errors.js';
import { PERSON_FILTER_FIELDS, parseFilter } from './filter.js';
import type { CheckContext, References, ResourceKind } from './kinds.js';
import { isPlainObject } from './merge.js';
import { messageView } from './messages.js';
import { personKind } from './person.js';

function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function objects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/** One contribution to the record a reference points at, when the reference is set. */
function addTo(refs: References, rel: string, totals: Record<string, number>): Contribution[] {
  const parent: ParentRef | undefined = refs[rel];
  if (!parent) return [];
  return Object.entries(totals).map(([name, value]) => ({ parent, name, value }));
}

/**
 * A page's `total_shares`: the sum of the share counts of its share options. The
 * counts per network are reported by the system that hosts the share buttons (only it
 * sees the shares); the page total is derived here so it always matches them.
 */
function deriveTotalShares(doc: JsonObject): JsonObject {
  if (!Array.isArray(doc.share_options)) return doc;
  let total = 0;
  for (const option of objects(doc.share_options)) {
    for (const network of Object.values(option)) {
      if (isPlainObject(network)) total += numberOf(network.total_shares);
    }
  }
  return { ...doc, total_shares: total };
}

/** Lookup key for names that must be unique per tenant (tags, lists), case-insensitive. */
function nameKey(doc: JsonObject): LookupKey[] {
  return typeof doc.name === 'string'
    ? [{ name: 'name', value: doc.name.trim().toLowerCase() }]
    : [];
}

function uniqueName(kind: string) {
  return async (doc: JsonObject, _refs: References, id: string, context: CheckContext) => {
    const key = nameKey(doc)[0];
    if (!key) return [];
    const others = (await context.findByKey(kind, 'name', key.value)).filter(
      (other) => other !== id,
    );
    return others.length === 0
      ? []
      : [
          {
            error_code: ErrorCode.DUPLICATE_NAME,
            description: `a ${kind} named ${JSON.stringify(doc.name)} already exists`,
            properties: ['name'],
            hint: `${kind} names are unique (ignoring case): helpers find ${kind}s by name`,
          },
        ];
  };
}

/**
 * The key under which a ticket level's totals are kept. Titles match trimmed and
 * ignoring case, as the event schema compares them when it refuses duplicates.
 */
function ticketLevelTotal(title: string, name: 'total_tickets' | 'total_amount'): string {
  return `ticket_levels.${title.trim().toLowerCase()}.${name}`;
}

/**
 * An event's ticket level `limit` is "tickets available, not counting those already
 * sold". It is stored as capacity (written limit + tickets sold so far) and rendered
 * as capacity − sold, so it falls as tickets are sold and a GET-then-PUT round trip
 * leaves it unchanged.
 */
function ticketLevelsAsStored(input: JsonObject, totals: Record<string, number>): JsonObject {
  if (!Array.isArray(input.ticket_levels)) return input;
  const levels = objects(input.ticket_levels).map((written) => {
    // The level's own totals are computed: what a client echoes back is dropped.
    const { total_tickets: _tickets, total_amount: _amount, ...level } = written;
    if (typeof level.limit !== 'number' || typeof level.title !== 'string') return level;
    const sold = totals[ticketLevelTotal(level.title, 'total_tickets')] ?? 0;
    return { ...level, limit: level.limit + sold };
  });
  return { ...input, ticket_levels: levels };
}

function renderEventTotals(doc: JsonObject, totals: Record<string, number>): JsonObject {
  const out: JsonObject = {
    ...doc,
    total_accepted: totals.total_accepted ?? 0,
    total_tickets: totals.total_tickets ?? 0,
    total_amount: totals.total_amount ?? 0,
  };
  if (Array.isArray(doc.ticket_levels)) {
    out.ticket_levels = objects(doc.ticket_levels).map((level) => {
      if (typeof level.title !== 'string') return level;
      const sold = totals[ticketLevelTotal(level.title, 'total_tickets')] ?? 0;
      const rendered: JsonObject = {
        ...level,
        total_tickets: sold,
        total_amount: totals[ticketLevelTotal(level.title, 'total_amount')] ?? 0,
      };
      if (typeof level.limit === 'number') rendered.limit = Math.max(0, level.limit - sold);
      return rendered;
    });
  }
  return out;
}

/**
 * What an attendance adds to its event: one acceptance unless the status says
 * otherwise (an RSVP without a status is a yes), its tickets, their money, and the
 * same per ticket level (matched by title). A declined attendance holds no tickets.
 */
function attendanceContributions(doc: JsonObject, refs: References): Contribution[] {
  const tickets = doc.status === 'declined' ? [] : objects(doc.tickets);
  const totals: Record<string, number> = {
    total_accepted: doc.status === undefined || doc.status === 'accepted' ? 1 : 0,
    total_tickets: tickets.length,
    total_amount: tickets.reduce((sum, ticket) => sum + numberOf(ticket.amount), 0),
  };
  for (const ticket of tickets) {
    if (typeof ticket.title !== 'string') continue;
    const count = ticketLevelTotal(ticket.title, 'total_tickets');
    const amount = ticketLevelTotal(ticket.title, 'total_amount');
    totals[count] = (totals[count] ?? 0) + 1;
    totals[amount] = (totals[amount] ?? 0) + numberOf(ticket.amount);
  }
  return addTo(refs, 'event', totals);
}

/** Tickets of an attendance per ticket level key (title, trimmed, lower-cased). */
function ticketsPerLevel(doc: JsonObject | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  if (!doc || doc.status === 'declined') return counts;
  for (const ticket of objects(doc.tickets)) {
    if (typeof ticket.title !== 'string') continue;
    const key = ticket.title.trim().toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * An attendance's tickets must name one of the event's ticket levels (when it has any)
 * and fit in what is left of it: the level's capacity minus the tickets others hold.
 * On update the attendance's own current tickets are given back first.
 */
async function checkTickets(doc: JsonObject, refs: References, id: string, context: CheckContext) {
  const eventRef = refs.event;
  const event = eventRef ? await context.document(eventRef) : undefined;
  if (!eventRef || !event || !Array.isArray(event.ticket_levels)) return [];
  const wanted = ticketsPerLevel(doc);
  if (wanted.size === 0) return [];
  const held = ticketsPerLevel(await context.document({ kind: 'attendance', id }));
  const totals = await context.totals(eventRef);
  const levels = new Map(
    objects(event.ticket_levels)
      .filter((level) => typeof level.title === 'string')
      .map((level) => [String(level.title).trim().toLowerCase(), level]),
  );
  const errors: ErrorDescription[] = [];
  for (const [key, count] of wanted) {
    const level = levels.get(key);
    if (!level) {
      errors.push({
        error_code: ErrorCode.UNKNOWN_TICKET_LEVEL,
        description: `the event has no ticket level titled ${JSON.stringify(key)}`,
        properties: ['tickets'],
        hint: `one of ${[...levels.values()].map((l) => JSON.stringify(l.title)).join(', ')}`,
      });
      continue;
    }
    if (typeof level.limit !== 'number') continue;
    const sold = (totals[ticketLevelTotal(key, 'total_tickets')] ?? 0) - (held.get(key) ?? 0);
    const available = Math.max(0, level.limit - sold);
    if (count > available) {
      errors.push({
        error_code: ErrorCode.TICKETS_SOLD_OUT,
        description: `${count} ${JSON.stringify(level.title)} tickets asked for, ${available} left`,
        properties: ['tickets'],
      });
    }
  }
  return errors;
}

/** A donation to a page is in the page's currency, so the page's total_amount adds up. */
async function checkDonation(
  doc: JsonObject,
  refs: References,
  _id: string,
  context: CheckContext,
) {
  const page = refs.fundraising_page ? await context.document(refs.fundraising_page) : undefined;
  if (!page || typeof page.currency !== 'string' || typeof doc.currency !== 'string') return [];
  if (page.currency === doc.currency) return [];
  return [
    {
      error_code: ErrorCode.CURRENCY_MISMATCH,
      description: `the donation is in ${doc.currency}; the fundraising page takes ${page.currency}`,
      properties: ['currency'],
      hint: `send currency ${JSON.stringify(page.currency)}, or leave it out`,
    },
  ];
}

/** A query's `filter` must be one the server can run against people. */
function checkQuery(doc: JsonObject): ErrorDescription[] {
  if (typeof doc.filter !== 'string') return [];
  try {
    parseFilter(doc.filter, PERSON_FILTER_FIELDS, 'std:query');
    return [];
  } catch (error) {
    if (error instanceof ApiError) return error.errors;
    throw error;
  }
}

/**
 * An answer must fit its question: a Paragraph question takes a `value` and no
 * responses; a SingleChoice question exactly one response; a MultiChoice question one
 * or more; every response must be one of the question's keys.
 */
async function checkAnswer(doc: JsonObject, refs: References, _id: string, context: CheckContext) {
  const questionRef = refs.question;
  const question = questionRef ? await context.document(questionRef) : undefined;
  if (!question) return [];
  const errors: ErrorDescription[] = [];
  const responses = Array.isArray(doc.responses) ? doc.responses : [];
  const keys = objects(question.responses).map((response) => response.key);
  const type = question.question_type;
  const fail = (description: string, property: string, hint?: string) =>
    errors.push({
      error_code: ErrorCode.INVALID_ANSWER,
      description,
      properties: [property],
      ...(hint ? { hint } : {}),
    });
  if (type === 'Paragraph') {
    if (responses.length > 0)
      fail('a Paragraph question takes a value, not responses', 'responses');
  } else if (type === 'SingleChoice' && responses.length !== 1 && doc.value === undefined) {
    fail('a SingleChoice question takes exactly one response', 'responses');
  } else if (type === 'MultiChoice' && responses.length === 0 && doc.value === undefined) {
    fail('a MultiChoice question takes one or more responses', 'responses');
  }
  responses.forEach((key, index) => {
    if (!keys.includes(key)) {
      fail(
        `${JSON.stringify(key)} is not a response of the question`,
        `responses[${index}]`,
        `one of ${keys.map((k) => JSON.stringify(k)).join(', ') || '(the question has no responses)'}`,
      );
    }
  });
  return errors;
}

/** `item_type`: the kind of the record a tagging tags or an item puts on a list. */
function withItemType(doc: JsonObject, refs: References, targets: readonly string[]): JsonObject {
  const target = targets.find((rel) => refs[rel]);
  return target ? { ...doc, item_type: target } : doc;
}

/** Records a tagging may tag: the SDK's list, so the two cannot differ. */
export const TAGGING_TARGETS = TAGGING_TARGET_TYPES;

/**
 * The server's rules for each kind, by its singular name. A kind not listed is served
 * exactly as the SDK declares it (its links, sub-collections and helpers). The kinds of
 * acts (signature, submission, donation, outreach, attendance, canvass) make a webhook
 * event of their name when created; the person makes `signup` (`person.ts`).
 */
const RULES: Readonly<Partial<Record<Exclude<KindName, 'person'>, ServerRules>>> = {
  petition: { totals: ['total_signatures'], derive: deriveTotalShares },
  // One signature per person and petition, one submission per person and form, one
  // attendance per person and event: acting again updates the record (see kinds.ts).
  // Donations and outreaches are separate acts each time, and add.
  signature: {
    event: { type: 'signature' },
    oneRecordPer: ['person', 'petition'],
    contributions: (_doc, refs) => addTo(refs, 'petition', { total_signatures: 1 }),
  },
  form: { totals: ['total_submissions'], derive: deriveTotalShares },
  submission: {
    event: { type: 'submission' },
    oneRecordPer: ['person', 'form'],
    contributions: (_doc, refs) => addTo(refs, 'form', { total_submissions: 1 }),
  },
  fundraising_page: { totals: ['total_donations', 'total_amount'], derive: deriveTotalShares },
  donation: {
    event: { type: 'donation' },
    check: checkDonation,
    // A voided donation stays on record but no longer counts towards the page.
    contributions: (doc, refs) =>
      doc.voided === true
        ? []
        : addTo(refs, 'fundraising_page', {
            total_donations: 1,
            total_amount: numberOf(doc.amount),
          }),
  },
  share_page: { derive: deriveTotalShares },
  advocacy_campaign: { totals: ['total_outreaches'], derive: deriveTotalShares },
  outreach: {
    event: { type: 'outreach' },
    contributions: (_doc, refs) => addTo(refs, 'advocacy_campaign', { total_outreaches: 1 }),
  },
  event: {
    totals: ['total_accepted', 'total_tickets', 'total_amount'],
    renderTotals: renderEventTotals,
    prepareInput: ticketLevelsAsStored,
    derive: deriveTotalShares,
  },
  attendance: {
    event: { type: 'attendance' },
    oneRecordPer: ['person', 'event'],
    contributions: attendanceContributions,
    check: checkTickets,
  },
  answer: { check: checkAnswer },
  // The person a canvass is about is its target (the canvasser only knocked).
  canvass: { event: { type: 'canvass', person: 'target' } },
  message: {
    // Status and counts move with time while a message goes out (domain/messages.ts).
    view: messageView,
    helpers: {
      send_helper: { path: 'send', title: 'Send this message, or stop sending it' },
      schedule_helper: { path: 'schedule', title: 'Schedule this message, or cancel its schedule' },
    },
  },
  tag: { requiredOnCreate: ['name'], lookupKeys: nameKey, check: uniqueName('tag') },
  tagging: {
    exactlyOneOf: [TAGGING_TARGETS],
    derive: (doc, refs) => withItemType(doc, refs, TAGGING_TARGETS),
  },
  list: {
    requiredOnCreate: ['name'],
    totals: ['total_items'],
    lookupKeys: nameKey,
    check: uniqueName('list'),
  },
  item: {
    exactlyOneOf: [['person', 'organization']],
    derive: (doc, refs) => withItemType(doc, refs, ['person', 'organization']),
    contributions: (_doc, refs) => addTo(refs, 'list', { total_items: 1 }),
  },
  query: { check: checkQuery },
};

/**
 * Every kind of the specification, in the SDK's order (the order the entry point links
 * them): each the SDK's declaration served with the server's {@link RULES}; the person
 * with its own (`person.ts`).
 */
export const ALL_KINDS: readonly ResourceKind[] = KINDS.map((kind) =>
  kind.singular === 'person' ? personKind : serveKind(kind, RULES[kind.singular]),
);
