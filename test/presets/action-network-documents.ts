// Documents shaped as Action Network's documentation describes its own collections
// (docs/v2/aep, event_campaigns, campaigns, unique_id_lists, metadata, custom_fields,
// embed): the data and wording are this project's own. Action Network declares its
// `action_network` curie beside `osdi`, with the same href; `distinctCuries` gives
// them different ones, so that a test shows a relation is found by its own name and
// not through that coincidence.

export const BASE = 'https://an.example/api/v2';

/** The curies of every document: both names expand alike, as on Action Network. */
export function curies(distinctCuries = false) {
  return [
    { name: 'osdi', href: 'https://an.example/docs/v2/{rel}', templated: true },
    {
      name: 'action_network',
      href: distinctCuries
        ? 'https://an.example/docs/vendor/{rel}'
        : 'https://an.example/docs/v2/{rel}',
      templated: true,
    },
  ];
}

/** The entry point: the specification's collections under `osdi:`, Action Network's own beside them. */
export function entryPoint(distinctCuries = false) {
  return {
    motd: 'Hello from a test double of Action Network',
    vendor_name: 'Action Network',
    product_name: 'Action Network',
    osdi_version: '1.1.1',
    namespace: 'action_network',
    max_page_size: 25,
    _links: {
      curies: curies(distinctCuries),
      self: { href: `${BASE}/` },
      'osdi:people': { href: `${BASE}/people` },
      'osdi:events': { href: `${BASE}/events` },
      'osdi:metadata': { href: `${BASE}/metadata` },
      'action_network:event_campaigns': { href: `${BASE}/event_campaigns` },
      'action_network:campaigns': { href: `${BASE}/campaigns` },
      'action_network:unique_id_lists': { href: `${BASE}/unique_id_lists` },
    },
  };
}

/** One event campaign: a weekend of neighbourhood repair cafés. */
export function eventCampaign(id: string, title: string) {
  return {
    identifiers: [`action_network:${id}`],
    origin_system: 'Action Network',
    created_date: '2025-03-02T09:15:00Z',
    modified_date: '2025-03-04T16:40:00Z',
    name: `Admin: ${title}`,
    title,
    description: '<p>Bring a broken toaster, leave with a working one.</p>',
    host_pitch: 'Have a table and a screwdriver? Host a café.',
    host_instructions: '<p>Book a room, then tell your neighbours.</p>',
    browser_url: `https://an.example/event_campaigns/${id}`,
    host_url: `https://an.example/event_campaigns/${id}/host`,
    featured_image_url: 'https://an.example/images/repair.jpg',
    total_events: 12,
    total_rsvps: 148,
    'action_network:hidden': false,
    'action_network:sponsor': { title: 'Fixers United', url: 'https://an.example/groups/fixers' },
    _links: {
      self: { href: `${BASE}/event_campaigns/${id}` },
      'osdi:events': { href: `${BASE}/event_campaigns/${id}/events` },
      'action_network:embed': { href: `${BASE}/event_campaigns/${id}/embed` },
    },
  };
}

/** Page `page` of `pages` of event campaigns, two a page, embedded and linked. */
export function eventCampaignPage(page: number, pages: number) {
  const records = [1, 2].map((n) =>
    eventCampaign(`ec-${page}-${n}`, `Repair cafés, round ${page}.${n}`),
  );
  return {
    total_pages: pages,
    per_page: 2,
    page,
    total_records: pages * 2,
    _links: {
      curies: curies(),
      self: { href: `${BASE}/event_campaigns?page=${page}` },
      ...(page < pages ? { next: { href: `${BASE}/event_campaigns?page=${page + 1}` } } : {}),
      'action_network:event_campaigns': records.map((record) => record._links.self),
    },
    _embedded: { 'action_network:event_campaigns': records },
  };
}

/** An event of a campaign, as the campaign's events collection lists it. */
export function campaignEvent(campaignId: string, id: string, title: string) {
  return {
    identifiers: [`action_network:${id}`],
    origin_system: 'Action Network',
    title,
    start_date: '2025-04-12T10:00:00Z',
    status: 'confirmed',
    visibility: 'public',
    total_accepted: 9,
    'action_network:event_campaign_id': campaignId,
    location: { venue: 'Library basement', locality: 'Leith', country: 'GB' },
    _links: {
      self: { href: `${BASE}/events/${id}` },
      'osdi:attendances': { href: `${BASE}/events/${id}/attendances` },
      'action_network:embed': { href: `${BASE}/events/${id}/embed` },
    },
  };
}

/** A campaign gathering three actions. */
export function campaign(id: string) {
  return {
    identifiers: [`action_network:${id}`],
    origin_system: 'Action Network',
    created_date: '2025-01-10T12:00:00Z',
    modified_date: '2025-01-11T08:30:00Z',
    name: 'Clean river spring',
    title: 'A cleaner river by summer',
    description: '<p>Three ways to help the river this spring.</p>',
    browser_url: `https://an.example/campaigns/${id}`,
    featured_image_url: 'https://an.example/images/river.jpg',
    actions: [
      { title: 'Sign to the water board', browser_url: 'https://an.example/petitions/river' },
      { title: 'Join a litter pick', browser_url: 'https://an.example/events/litter-pick' },
      { title: 'Tell us your river story', browser_url: 'https://an.example/forms/stories' },
    ],
    'action_network:hidden': false,
    _links: { self: { href: `${BASE}/campaigns/${id}` } },
  };
}

/** A unique ID list as the server answers it: its name and how many IDs it holds. */
export function uniqueIdList(id: string, name: string, count: number) {
  return {
    identifiers: [`action_network:${id}`],
    origin_system: 'Action Network',
    created_date: '2025-05-01T07:00:00Z',
    modified_date: '2025-05-01T07:00:00Z',
    name,
    count,
    _links: { self: { href: `${BASE}/unique_id_lists/${id}` } },
  };
}

/** The metadata root: its one list, the custom fields. */
export function metadataRoot() {
  return {
    name: 'Action Network',
    _links: {
      curies: curies(),
      self: { href: `${BASE}/metadata` },
      'action_network:custom_fields': { href: `${BASE}/metadata/custom_fields` },
    },
  };
}

/** The custom field list: the fields in a member, not embedded records. */
export function customFieldList() {
  return {
    origin_system: 'Action Network',
    name: 'Custom fields',
    description: 'The custom fields of this group.',
    'action_network:custom_fields': [
      {
        name: 'bike_owner',
        created_date: '2024-11-02T10:00:00Z',
        modified_date: '2024-11-02T10:00:00Z',
        notes: 'Asked on the repair café form',
        numeric_id: 311,
      },
      {
        name: 'ward',
        created_date: '2023-06-19T14:05:00Z',
        modified_date: '2024-01-08T09:12:00Z',
        notes: null,
        numeric_id: 27,
      },
    ],
    _links: { curies: curies(), self: { href: `${BASE}/metadata/custom_fields` } },
  };
}

/** An embed: the six variants of the snippet that puts an action on another site. */
export function embed(path: string) {
  const snippet = (style: string) =>
    `<script src='https://an.example/widgets/${path}?style=${style}'></script><div id='an-${style}'></div>`;
  return {
    embed_standard_default_styles: snippet('standard-default'),
    embed_standard_layout_only_styles: snippet('standard-layout'),
    embed_standard_no_styles: snippet('standard-none'),
    embed_full_default_styles: snippet('full-default'),
    embed_full_layout_only_styles: snippet('full-layout'),
    embed_full_no_styles: snippet('full-none'),
    _links: { curies: curies(), self: { href: `${BASE}/${path}/embed` } },
  };
}
