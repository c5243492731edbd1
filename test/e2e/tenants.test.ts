import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../../reference-server/src/domain/catalog.js';
import {
  type Client,
  connect,
  errorDescriptions,
  isHTTPError,
  linkTo,
  type Resource,
} from '../../src/index.js';
import { type TestServer, testServer } from './reference-server.js';

/** The collections of a {@link Client}, one per kind. */
type CollectionName =
  | 'people'
  | 'organizations'
  | 'petitions'
  | 'signatures'
  | 'forms'
  | 'submissions'
  | 'fundraisingPages'
  | 'donations'
  | 'sharePages'
  | 'advocacyCampaigns'
  | 'outreaches'
  | 'events'
  | 'attendances'
  | 'questions'
  | 'answers'
  | 'wrappers'
  | 'messages'
  | 'tags'
  | 'taggings'
  | 'lists'
  | 'items'
  | 'queries'
  | 'canvasses';

/** One record of every kind, in one tenant. */
type Graph = Record<CollectionName, { url: string }>;

interface KindCase {
  name: CollectionName;
  /** Members of the record created in each tenant. */
  fields: Record<string, unknown>;
  /** Its links (relation → collection), to records of the tenant created before it. */
  links?: Partial<Record<string, CollectionName>>;
  /**
   * A record of another kind that links this kind: `[collection, relation, relation
   * to leave out]`. Absent for kinds no relation of any kind links (actions, taggings,
   * items, messages: nothing points at them).
   */
  linkedBy?: [CollectionName, string, string?];
}

/** Every kind, each after the kinds it links to. */
const KINDS: KindCase[] = [
  { name: 'people', fields: { given_name: 'Ana' }, linkedBy: ['petitions', 'creator'] },
  {
    name: 'organizations',
    fields: { organization: 'Friends of Elm Park' },
    linkedBy: ['petitions', 'sponsor'],
  },
  { name: 'petitions', fields: { title: 'Save Elm Park' }, linkedBy: ['signatures', 'petition'] },
  {
    name: 'signatures',
    fields: { comments: 'Yes' },
    links: { 'std:person': 'people', 'std:petition': 'petitions' },
  },
  { name: 'forms', fields: { title: 'Volunteer' }, linkedBy: ['submissions', 'form'] },
  {
    name: 'submissions',
    fields: {},
    links: { 'std:person': 'people', 'std:form': 'forms' },
    linkedBy: ['donations', 'submission'],
  },
  {
    name: 'fundraisingPages',
    fields: { title: 'Park fund', currency: 'USD' },
    linkedBy: ['donations', 'fundraising_page'],
  },
  {
    name: 'donations',
    fields: { amount: 25, currency: 'USD' },
    links: { 'std:person': 'people', 'std:fundraising_page': 'fundraisingPages' },
  },
  {
    name: 'sharePages',
    fields: { title: 'Share the park' },
    linkedBy: ['taggings', 'share_page', 'person'],
  },
  {
    name: 'advocacyCampaigns',
    fields: { title: 'Call the council' },
    linkedBy: ['outreaches', 'advocacy_campaign'],
  },
  {
    name: 'outreaches',
    fields: { type: 'phone' },
    links: { 'std:person': 'people', 'std:advocacy_campaign': 'advocacyCampaigns' },
  },
  { name: 'events', fields: { title: 'Cleanup' }, linkedBy: ['attendances', 'event'] },
  {
    name: 'attendances',
    fields: { status: 'accepted' },
    links: { 'std:person': 'people', 'std:event': 'events' },
    linkedBy: ['donations', 'attendance'],
  },
  {
    name: 'questions',
    fields: { title: 'Anything else?', question_type: 'Paragraph' },
    linkedBy: ['answers', 'question'],
  },
  {
    name: 'answers',
    fields: { value: 'More trees' },
    links: { 'std:person': 'people', 'std:question': 'questions' },
  },
  {
    name: 'wrappers',
    fields: { name: 'Footer', wrapper_type: 'email' },
    linkedBy: ['messages', 'wrapper'],
  },
  { name: 'tags', fields: { name: 'volunteer' }, linkedBy: ['taggings', 'tag'] },
  {
    name: 'taggings',
    fields: {},
    links: { 'std:tag': 'tags', 'std:person': 'people' },
  },
  { name: 'lists', fields: { name: 'Phone bank' }, linkedBy: ['items', 'list'] },
  { name: 'items', fields: {}, links: { 'std:list': 'lists', 'std:person': 'people' } },
  { name: 'queries', fields: { name: 'Active volunteers' }, linkedBy: ['messages', 'query'] },
  {
    name: 'messages',
    fields: { subject: 'Hello' },
    links: { 'std:wrapper': 'wrappers', 'std:list': 'lists' },
  },
  {
    name: 'canvasses',
    fields: { contact_type: 'door' },
    links: { 'std:target': 'people' },
    linkedBy: ['answers', 'canvass'],
  },
];

const caseOf = (name: CollectionName): KindCase => {
  const found = KINDS.find((k) => k.name === name);
  if (!found) throw new Error(`no case for ${name}`);
  return found;
};

/** `std:<plural>` of a collection of the client (`std:fundraising_pages`). */
let relationOf: (name: CollectionName) => string;

/** The body that creates a record of `kind` in the tenant of `graph`. */
function body(kind: KindCase, graph: Graph, override: Record<string, string | null> = {}) {
  const links: Record<string, { href: string }> = {};
  for (const [rel, name] of Object.entries(kind.links ?? {})) {
    if (name) links[rel] = linkTo(graph[name]);
  }
  for (const [rel, href] of Object.entries(override)) {
    if (href === null) delete links[rel];
    else links[rel] = { href };
  }
  return { ...kind.fields, ...(Object.keys(links).length ? { _links: links } : {}) };
}

/**
 * The part of a collection these tests use, whatever its kind: the union of the typed
 * collections has overloaded methods TypeScript cannot call, and the table is untyped.
 */
interface AnyCollection {
  create(input: object): Promise<unknown>;
  get(url: string): Promise<Resource<object, object>>;
}

const collectionOf = (client: Client, kind: KindCase) =>
  client[kind.name] as unknown as AnyCollection;

function create(client: Client, kind: KindCase, input: object): Promise<unknown> {
  return collectionOf(client, kind).create(input);
}

async function buildGraph(client: Client): Promise<Graph> {
  const graph = {} as Graph;
  for (const kind of KINDS) {
    graph[kind.name] = (await create(client, kind, body(kind, graph))) as { url: string };
  }
  return graph;
}

/** The status of a refused request and `[error_code, ...properties]` of each reason. */
async function refusal(request: Promise<unknown>) {
  const error: unknown = await request.catch((e: unknown) => e);
  if (!isHTTPError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  const reasons = errorDescriptions(error.stdError);
  return {
    status: error.status,
    codes: reasons.map((d) => [d.error_code, ...(d.properties ?? [])]),
  };
}

let server: TestServer;
let demo: Client;
let other: Client;
let reader: Client;
let records: Graph;

beforeAll(async () => {
  server = testServer();
  const as = (apiKey: string) => connect(server.entryPoint, { apiKey, fetch: server.fetch });
  [demo, other, reader] = await Promise.all([
    as(server.keys.write),
    as(server.keys.otherTenant),
    as(server.keys.read),
  ]);
  relationOf = (name) => demo[name].itemRelation;
  records = await buildGraph(demo);
});
afterAll(() => server.close());

it('covers every kind of the catalog', () => {
  const plurals = KINDS.map((kind) => relationOf(kind.name)).sort();
  expect(plurals).toEqual(ALL_KINDS.map((kind) => `std:${kind.plural}`).sort());
});

describe.each(KINDS)("another tenant's view of $name", (kind) => {
  const url = () => records[kind.name].url;

  it('does not list or find the record', async () => {
    expect((await demo[kind.name].toArray()).map((r) => r.url)).toContain(url());
    expect(await other[kind.name].toArray()).toEqual([]);
    const page = await other.get(await other[kind.name].url());
    expect(page.properties.total_records).toBe(0);
    expect((await refusal(other[kind.name].get(url()))).status).toBe(404);
  });

  it("answers 404 on the record's sub-collections", async () => {
    const document = (await demo[kind.name].get(url())).document;
    const below = (rels: string[]) =>
      rels.map((rel) => document.link(rel)?.url() ?? '').filter((h) => h.startsWith(`${url()}/`));
    const isHelper = (rel: string) => rel.endsWith('_helper');
    const subs = below(document.relations().filter((rel) => !isHelper(rel)));
    // Helpers are addressed below the record too; another tenant's key cannot reach them.
    for (const helper of below(document.relations().filter(isHelper))) {
      const post = other.transport.request({ method: 'POST', url: helper, body: {} });
      expect((await refusal(post)).status).toBe(404);
    }
    const expected = ALL_KINDS.find((k) => `std:${k.plural}` === relationOf(kind.name));
    expect(subs).toHaveLength(expected?.subCollections.length ?? -1);
    for (const sub of subs) {
      expect((await demo.get(sub)).properties.total_records).toEqual(expect.any(Number));
      expect((await refusal(other.get(sub))).status).toBe(404);
      const post = other.transport.request({ method: 'POST', url: sub, body: {} });
      expect((await refusal(post)).status).toBe(404);
    }
  });

  it('cannot update or delete the record', async () => {
    const before = (await demo[kind.name].get(url())).data;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const request = other.transport.request({ method, url: url(), body: {} });
      const { status, codes } = await refusal(request);
      expect([status, codes[0]?.[0]]).toEqual([404, 'NOT_FOUND']);
    }
    expect((await demo[kind.name].get(url())).data).toEqual(before);
  });
});

describe("links to another tenant's records", () => {
  let own: Graph;
  beforeAll(async () => {
    own = await buildGraph(other);
  });

  it.each(KINDS.filter((kind) => kind.linkedBy))(
    'refuses a link to $name (INVALID_LINK)',
    async (kind) => {
      const [via, rel, drop] = kind.linkedBy ?? ['people', ''];
      const link = (href: string) =>
        create(
          other,
          caseOf(via),
          body(caseOf(via), own, {
            [`std:${rel}`]: href,
            ...(drop ? { [`std:${drop}`]: null } : {}),
          }),
        );
      // The same body linking the tenant's own record is accepted.
      expect(await link(own[kind.name].url)).toBeDefined();
      const { status, codes } = await refusal(link(records[kind.name].url));
      expect(status).toBe(400);
      expect(codes).toContainEqual(['INVALID_LINK', `_links.std:${rel}`]);
    },
  );
});

describe.each(KINDS)('the read key on $name', (kind) => {
  it('reads the record but may not create, update or delete', async () => {
    const url = records[kind.name].url;
    const record = await collectionOf(reader, kind).get(url);
    expect(record.url).toBe(url);
    expect((await reader[kind.name].toArray()).map((r) => r.url)).toContain(url);
    const attempts = [
      () => create(reader, kind, body(kind, records)),
      () => record.update({}),
      () => record.delete(),
    ];
    for (const attempt of attempts) {
      const { status, codes } = await refusal(attempt());
      expect([status, codes[0]?.[0]]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await demo[kind.name].get(url)).data).toEqual(record.data);
  });
});
