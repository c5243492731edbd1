/**
 * A small ADIS server in process, as a `fetch`, for the conformance checker's tests:
 * correct by default (an entry point, people in pages of 2, one tag, std:error bodies, a
 * key, filtering by modified_date, CORS), or broken in exactly one way (a `fault`).
 * Options shape it as servers in the wild are: its curies' documentation on another
 * host, an entry point with only what the specification requires, a vendor's name (an
 * Action Network one makes the checker recognise it), collections without totals, a
 * read-only lists collection. No sockets: the checker is given `server.fetch` in place
 * of the global one; a request to any other host fails as `fetch` fails for a host that
 * does not resolve, and is recorded, so that a test sees whether it was made.
 */

/** The one way the server is broken, or `none` for a server that follows the specification. */
export type BrokenServerFault =
  /** Nothing broken. */
  | 'none'
  /** The `next` of people's page 2 points back to page 1 (`?page=1`). */
  | 'next-loops'
  /** People records have no `_links.self`. */
  | 'no-self'
  /** People's page 2 answers 200 with `text/html` (`<html>oops</html>`). */
  | 'not-json'
  /** People's page 2 answers 500. */
  | 'error-500-page-2'
  /** One person has `given_name: 42` and `email_addresses: 'nope'`. */
  | 'wrong-type'
  /** The entry point declares no curies. */
  | 'no-curies'
  /** The 404 of a person that does not exist is `{"message":"not here"}`, not a std:error. */
  | 'error-not-std'
  /** The 3rd request overall, and only it, answers 429 without `Retry-After`. */
  | 'rate-limit-no-retry-after'
  /** People's page 2 answers exactly the records of page 1. */
  | 'repeats-page'
  /** The entry point has no `std_version`, which the specification requires. */
  | 'no-std-version'
  /** Tags' page says `total_pages: 3` for its 1 record at `per_page: 2`. */
  | 'tags-total-pages-wrong';

/** Every fault of {@link BrokenServerFault}, `none` first. */
export const BROKEN_SERVER_FAULTS = [
  'none',
  'next-loops',
  'no-self',
  'not-json',
  'error-500-page-2',
  'wrong-type',
  'no-curies',
  'error-not-std',
  'rate-limit-no-retry-after',
  'repeats-page',
  'no-std-version',
  'tags-total-pages-wrong',
] as const satisfies readonly BrokenServerFault[];

/** Options of {@link createBrokenServer}. */
export interface BrokenServerOptions {
  /** How the server is broken. Default `none`. */
  fault?: BrokenServerFault;
  /** The curie's href (`{rel}` in it). Default `${BROKEN_ORIGIN}/docs/{rel}`, which answers. */
  curieHref?: string;
  /**
   * `minimal`: the entry point has only what the specification requires (`std_version`,
   * `_links`, its curies), without `max_pagesize`, `motd`, `vendor_name`, `product_name`
   * or `namespace`, which it lists. Default `full`.
   */
  entryPoint?: 'full' | 'minimal';
  /** The entry point's `vendor_name` (with `full`). Default `Broken Test`. */
  vendorName?: string;
  /** Collections, by plural, whose pages carry neither `total_records` nor `total_pages`. */
  withoutTotals?: readonly ('people' | 'tags' | 'lists')[];
  /** Also link `std:lists`: one list, read only (a POST answers 405). Default false. */
  lists?: boolean;
}

/** A request the server received. */
export interface ReceivedRequest {
  method: string;
  url: string;
}

/** The server: its `fetch`, and what it received. */
export interface BrokenServer {
  /** Answers a request as the server would; pass it as `checkServer`'s `fetch`. */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Every request received, in order (method upper case, absolute URL). */
  readonly requests: ReceivedRequest[];
  /** The fault it was built with. */
  readonly fault: BrokenServerFault;
}

/** The server's origin. */
export const BROKEN_ORIGIN = 'http://broken.test';
/** The entry point's URL. */
export const BROKEN_ENTRY_POINT = `${BROKEN_ORIGIN}/api/v1/`;
/** The key the server accepts, in `STD-API-Token`. */
export const BROKEN_API_KEY = 'good-key';

const API = `${BROKEN_ORIGIN}/api/v1`;
const PER_PAGE = 2;
const HAL = 'application/hal+json';
const CORS = { 'Access-Control-Allow-Origin': '*' };

interface Person {
  id: number;
  given: string;
  family: string;
  created: string;
  modified: string;
}

const PEOPLE: readonly Person[] = [
  ['Ana', 'Alves'],
  ['Bo', 'Berg'],
  ['Cy', 'Cole'],
  ['Di', 'Diaz'],
  ['Ed', 'Eng'],
].map(([given, family], index) => ({
  id: index + 1,
  given: given as string,
  family: family as string,
  created: `2024-01-0${index + 1}T10:00:00.000Z`,
  modified: `2024-02-0${index + 1}T10:00:00.000Z`,
}));

const TAG = {
  identifiers: ['broken:t1'],
  created_date: '2024-01-01T09:00:00.000Z',
  modified_date: '2024-01-01T09:00:00.000Z',
  name: 'volunteer',
  _links: { self: { href: `${API}/tags/t1` } },
};

const LIST = {
  identifiers: ['broken:l1'],
  created_date: '2024-01-01T09:00:00.000Z',
  modified_date: '2024-01-01T09:00:00.000Z',
  name: 'Donors',
  _links: { self: { href: `${API}/lists/l1` } },
};

/**
 * Builds a new server, correct or broken by `options.fault`, shaped by the other
 * options. Each server counts its own requests (the `rate-limit-no-retry-after` fault
 * refuses its 3rd) and records them in `requests`, those to other hosts included.
 *
 * @example
 * ```ts
 * const server = createBrokenServer({ fault: 'next-loops' });
 * const report = await checkServer('http://broken.test/api/v1/', {
 *   apiKey: 'good-key',
 *   fetch: server.fetch,
 *   rate: 0,
 * });
 * server.requests.map((request) => request.method); // ['GET', 'GET', …]
 * ```
 */
export function createBrokenServer(options: BrokenServerOptions = {}): BrokenServer {
  const fault = options.fault ?? 'none';
  const requests: ReceivedRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    requests.push({ method: request.method.toUpperCase(), url: request.url });
    // Another host does not resolve: fetch fails as Node's does, its reason one level down.
    if (new URL(request.url).origin !== BROKEN_ORIGIN) {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error(`getaddrinfo ENOTFOUND ${new URL(request.url).hostname}`), {
          code: 'ENOTFOUND',
        }),
      });
    }
    if (fault === 'rate-limit-no-retry-after' && requests.length === 3) {
      return errorAnswer(429, 'atomic', 'RATE_LIMITED', 'too many requests');
    }
    return answer({ ...options, fault }, request);
  };
  return { fetch, requests, fault };
}

type Shape = BrokenServerOptions & { fault: BrokenServerFault };

/** The answer of the server shaped by `shape` to `request` (the 429 fault aside). */
function answer(shape: Shape, request: Request): Response {
  const { fault } = shape;
  const url = new URL(request.url);
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS,
        'Access-Control-Allow-Headers': 'Content-Type, STD-API-Token',
        'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE',
      },
    });
  }
  const docs = /^\/docs\/([^/]+)$/.exec(url.pathname);
  if (docs) {
    return new Response(`<html><body>${docs[1]}</body></html>`, {
      status: 200,
      headers: { ...CORS, 'Content-Type': 'text/html; charset=utf-8' },
    });
  }
  if (request.headers.get('STD-API-Token') !== BROKEN_API_KEY) {
    return errorAnswer(401, 'std:resource', 'UNAUTHORIZED', 'a valid STD-API-Token is required');
  }
  if (request.method !== 'GET' && shape.lists === true && url.pathname === '/api/v1/lists') {
    return errorAnswer(405, 'std:list', 'METHOD_NOT_ALLOWED', 'lists are read only');
  }
  if (request.method !== 'GET') {
    return errorAnswer(
      405,
      'std:resource',
      'METHOD_NOT_ALLOWED',
      `${request.method} is not served`,
    );
  }
  const path = url.pathname;
  const totals = (plural: 'people' | 'tags' | 'lists') =>
    !(shape.withoutTotals ?? []).includes(plural);
  if (path === '/api/v1/' || path === '/api/v1') return hal(entryPoint(shape));
  if (path === '/api/v1/people') return peoplePage(fault, url, totals('people'));
  if (path === '/api/v1/tags') {
    return hal(
      collectionPage('tags', [TAG], {
        number: 1,
        totalPages: fault === 'tags-total-pages-wrong' ? 3 : 1,
        totalRecords: 1,
        next: false,
        totals: totals('tags'),
      }),
    );
  }
  if (path === '/api/v1/lists' && shape.lists === true) {
    return hal(
      collectionPage('lists', [LIST], {
        number: 1,
        totalPages: 1,
        totalRecords: 1,
        next: false,
        totals: totals('lists'),
      }),
    );
  }
  if (path === '/api/v1/lists/l1' && shape.lists === true) return hal(LIST);
  const person = /^\/api\/v1\/people\/([^/]+)$/.exec(path);
  if (person) {
    const found = PEOPLE.find((candidate) => String(candidate.id) === person[1]);
    if (found) return hal(personRecord(found, fault));
    if (fault === 'error-not-std') return json(404, { message: 'not here' });
    return errorAnswer(404, 'std:person', 'NOT_FOUND', 'no such person');
  }
  const tag = /^\/api\/v1\/tags\/([^/]+)$/.exec(path);
  if (tag) {
    if (tag[1] === 't1') return hal(TAG);
    return errorAnswer(404, 'std:tag', 'NOT_FOUND', 'no such tag');
  }
  return errorAnswer(404, 'std:resource', 'NOT_FOUND', `nothing at ${path}`);
}

function entryPoint(shape: Shape): Record<string, unknown> {
  const { fault } = shape;
  return {
    ...(fault === 'no-std-version' ? {} : { std_version: '1.0' }),
    ...(shape.entryPoint === 'minimal'
      ? {}
      : {
          max_pagesize: PER_PAGE,
          motd: 'A server broken on purpose',
          vendor_name: shape.vendorName ?? 'Broken Test',
          product_name: 'Broken Server',
          namespace: 'broken',
        }),
    _links: {
      self: { href: `${API}/` },
      ...(fault === 'no-curies'
        ? {}
        : {
            curies: [
              {
                name: 'std',
                href: shape.curieHref ?? `${BROKEN_ORIGIN}/docs/{rel}`,
                templated: true,
              },
            ],
          }),
      'std:people': { href: `${API}/people` },
      'std:tags': { href: `${API}/tags` },
      ...(shape.lists === true ? { 'std:lists': { href: `${API}/lists` } } : {}),
    },
  };
}

/** A page of people, filtered by `filter=modified_date gt|lt '<date>'` when asked. */
function peoplePage(fault: BrokenServerFault, url: URL, totals: boolean): Response {
  const filter = url.searchParams.get('filter');
  let people = PEOPLE;
  if (filter !== null) {
    const match = /^\s*modified_date\s+(gt|lt)\s+'([^']+)'\s*$/.exec(filter);
    const date = match ? Date.parse(match[2] as string) : Number.NaN;
    if (!match || Number.isNaN(date)) {
      return errorAnswer(400, 'std:person', 'BAD_FILTER', `cannot filter by ${filter}`);
    }
    people = PEOPLE.filter((person) =>
      match[1] === 'gt' ? Date.parse(person.modified) > date : Date.parse(person.modified) < date,
    );
  }
  const number = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  if (filter === null && number === 2) {
    if (fault === 'not-json') {
      return new Response('<html>oops</html>', {
        status: 200,
        headers: { ...CORS, 'Content-Type': 'text/html' },
      });
    }
    if (fault === 'error-500-page-2') {
      return errorAnswer(500, 'std:person', 'INTERNAL', 'page 2 is broken');
    }
  }
  const totalPages = Math.max(1, Math.ceil(people.length / PER_PAGE));
  const shown = fault === 'repeats-page' && number === 2 ? 1 : number;
  const records = people
    .slice((shown - 1) * PER_PAGE, shown * PER_PAGE)
    .map((person) => personRecord(person, fault));
  const page = collectionPage('people', records, {
    number,
    totalPages,
    totalRecords: people.length,
    next: number < totalPages,
    filter,
    totals,
  });
  if (fault === 'next-loops' && number === 2) {
    (page._links as Record<string, unknown>).next = { href: `${API}/people?page=1` };
  }
  return hal(page);
}

function personRecord(person: Person, fault: BrokenServerFault): Record<string, unknown> {
  const wrong = fault === 'wrong-type' && person.id === 1;
  return {
    identifiers: [`broken:${person.id}`],
    created_date: person.created,
    modified_date: person.modified,
    given_name: wrong ? 42 : person.given,
    family_name: person.family,
    email_addresses: wrong
      ? 'nope'
      : [{ address: `${person.given.toLowerCase()}@example.org`, primary: true }],
    ...(fault === 'no-self' ? {} : { _links: { self: { href: `${API}/people/${person.id}` } } }),
  };
}

function collectionPage(
  plural: 'people' | 'tags' | 'lists',
  records: readonly Record<string, unknown>[],
  page: {
    number: number;
    totalPages: number;
    totalRecords: number;
    next: boolean;
    filter?: string | null;
    /** Whether the page carries total_pages and total_records. */
    totals: boolean;
  },
): Record<string, unknown> {
  const pageUrl = (number: number) => {
    const url = new URL(`${API}/${plural}`);
    if (page.filter) url.searchParams.set('filter', page.filter);
    url.searchParams.set('page', String(number));
    return url.href;
  };
  const rel = `std:${plural}`;
  const hrefs = records
    .map((record) => (record._links as { self?: { href: string } } | undefined)?.self)
    .filter((self) => self !== undefined)
    .map((self) => ({ href: self.href }));
  return {
    page: page.number,
    per_page: PER_PAGE,
    ...(page.totals ? { total_pages: page.totalPages, total_records: page.totalRecords } : {}),
    _links: {
      self: { href: pageUrl(page.number) },
      ...(page.next ? { next: { href: pageUrl(page.number + 1) } } : {}),
      ...(page.number > 1 ? { prev: { href: pageUrl(page.number - 1) } } : {}),
      [rel]: hrefs,
    },
    _embedded: { [rel]: records },
  };
}

function hal(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { ...CORS, 'Content-Type': HAL },
  });
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, 'Content-Type': 'application/json' },
  });
}

/** An answer with a std:error body of one resource_status. */
function errorAnswer(
  status: number,
  resource: string,
  code: string,
  description: string,
): Response {
  return json(status, {
    'std:error': {
      request_type: 'atomic',
      response_code: status,
      resource_status: [
        {
          resource,
          response_code: status,
          error_descriptions: [{ error_code: code, description }],
        },
      ],
    },
  });
}
