/**
 * Action Network's event campaigns on the reference server (`docs/v2/event_campaigns`):
 * the collection `event_campaigns`, created and updated by clients, whose events are a
 * sub-collection of ordinary events (a POST there creates an event of the campaign),
 * with `total_events` and `total_rsvps` kept by the server and `host_url` derived.
 *
 * An event of a campaign refers to it (`action_network:event_campaign`), a reference the
 * preset adds to the specification's event ({@link eventInCampaigns}); an attendance of
 * such an event counts towards the campaign's RSVPs ({@link attendanceInCampaigns}).
 */
import type { AnyKind } from 'adis-sdk/schema';
import { kindNamed, one } from 'adis-sdk/schema';
import { eventCampaignKind } from 'adis-sdk/server-kit';
import { serveKind } from '../../domain/define-kind.js';
import { ErrorCode, type ErrorDescription } from '../../domain/errors.js';
import type { References, ResourceKind } from '../../domain/kinds.js';
import { referencesOf } from '../../domain/records/index.js';
import type { Contribution, JsonObject } from '../../storage/storage.js';

/** The event's reference to its campaign, without the curie. */
export const EVENT_CAMPAIGN_REFERENCE = 'event_campaign';

/**
 * The specification's event declaration with a relation back to its event campaign:
 * what `serveKind` reads to serve a campaign's events (a POST to them sets the relation).
 * A copy: the SDK's event kind is not changed.
 */
function eventWithCampaign(): AnyKind {
  const event = kindNamed('event');
  if (!event) throw new Error('the specification declares no event kind');
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(event),
      relations: {
        value: {
          ...event.relations,
          eventCampaign: one(EVENT_CAMPAIGN_REFERENCE, { rel: `std:${EVENT_CAMPAIGN_REFERENCE}` }),
        },
        enumerable: true,
      },
    },
  ) as AnyKind;
}

/** The SDK's event campaign declaration without its embed relation (the embed is served apart). */
function campaignWithoutEmbed(): AnyKind {
  const { embed: _embed, ...relations } = eventCampaignKind.relations;
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(eventCampaignKind),
      relations: { value: relations, enumerable: true },
    },
  ) as AnyKind;
}

/**
 * `host_url`: where people sign up to host an event of the campaign. Action Network
 * gives campaigns made in its interface such a page; one made through the API has no
 * public page. Here a campaign with a `browser_url` has its host page below it
 * (`<browser_url>/host`), one without has none.
 */
function deriveHostUrl(doc: JsonObject): JsonObject {
  const { host_url: _stale, ...rest } = doc;
  if (typeof doc.browser_url !== 'string' || doc.browser_url === '') return rest;
  return { ...rest, host_url: `${doc.browser_url.replace(/\/+$/, '')}/host` };
}

/**
 * The server's event campaign: the SDK's declaration (`eventCampaignKind`) with a
 * required `title` (Action Network refuses a campaign without one), the campaign's
 * totals and its derived `host_url`. Its `events` list the events whose
 * `event_campaign` is the campaign.
 */
export const eventCampaignServerKind: ResourceKind = serveKind(
  campaignWithoutEmbed(),
  {
    title: 'The collection of event campaigns in the system',
    requiredOnCreate: ['title'],
    totals: ['total_events', 'total_rsvps'],
    derive: deriveHostUrl,
  },
  (singular) => (singular === 'event' ? eventWithCampaign() : kindNamed(singular)),
);

/** One contribution to the campaign `refs` name, when they name one. */
function toCampaign(refs: References, name: string): Contribution[] {
  const campaign = refs[EVENT_CAMPAIGN_REFERENCE];
  return campaign ? [{ parent: campaign, name, value: 1 }] : [];
}

/**
 * An event stays in the campaign it was created in: its attendances count towards that
 * campaign's RSVPs from the moment they are written, so moving the event (or adding
 * an event with RSVPs to a campaign) would leave the counts wrong.
 */
function campaignUnchanged(
  refs: References,
  id: string,
  stored: JsonObject | undefined,
): ErrorDescription[] {
  if (!stored) return [];
  const before = referencesOf(stored)[EVENT_CAMPAIGN_REFERENCE];
  const after = refs[EVENT_CAMPAIGN_REFERENCE];
  if (before?.id === after?.id) return [];
  return [
    {
      error_code: ErrorCode.INVALID_LINK,
      description: `event ${id} ${before ? `belongs to event campaign ${before.id}` : 'is in no event campaign'}; an event cannot move to another campaign`,
      properties: [`_links.std:${EVENT_CAMPAIGN_REFERENCE}`],
      hint: 'create the event in the campaign: POST it to the campaign’s events',
    },
  ];
}

/**
 * The specification's event under the preset: it may refer to an event campaign (set
 * when it is POSTed to the campaign's events), which it adds 1 to (`total_events`), and
 * it stays in that campaign.
 *
 * @example
 * ```ts
 * import { eventKind } from 'adis-sdk/schema';
 * import { serveKind } from 'adis-server';
 * import { eventInCampaigns } from './event-campaign.js';
 *
 * const served = eventInCampaigns(serveKind(eventKind));
 * served.references.some((reference) => reference.rel === 'event_campaign'); // true
 * ```
 */
export function eventInCampaigns(kind: ResourceKind): ResourceKind {
  return {
    ...kind,
    references: [
      ...kind.references,
      { rel: EVENT_CAMPAIGN_REFERENCE, kinds: ['event_campaign'], required: false },
    ],
    contributions: async (doc, refs, context) => [
      ...((await kind.contributions?.(doc, refs, context)) ?? []),
      ...toCampaign(refs, 'total_events'),
    ],
    check: async (doc, refs, id, context) => [
      ...((await kind.check?.(doc, refs, id, context)) ?? []),
      ...campaignUnchanged(refs, id, await context.document({ kind: kind.singular, id })),
    ],
  };
}

/**
 * The specification's attendance under the preset: one that counts as an acceptance on
 * its event (`total_accepted`) also counts as an RSVP of the event's campaign
 * (`total_rsvps`), when the event is in one.
 */
export function attendanceInCampaigns(kind: ResourceKind): ResourceKind {
  return {
    ...kind,
    contributions: async (doc, refs, context) => {
      const own = (await kind.contributions?.(doc, refs, context)) ?? [];
      const accepted = own.some((c) => c.name === 'total_accepted' && c.value > 0);
      const event = refs.event && accepted ? await context.document(refs.event) : undefined;
      return event ? [...own, ...toCampaign(referencesOf(event), 'total_rsvps')] : own;
    },
  };
}
