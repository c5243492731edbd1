/**
 * Every collection the entry point links, its first pages: the page as a collection
 * document (JSON, page numbers, `per_page` within `max_pagesize`, totals that agree),
 * `next` (a page number in its href; the stop rules: a `next` back to a page already
 * read, a page repeating the one before, an empty page that still has a `next`), `prev`,
 * and every record of those pages against its kind (records.ts). The first record of
 * each collection is fetched again by its `self`. The page's members are listed by the
 * specification, not required: one missing is a warn, one that is wrong a fail. A link
 * to another origin is not followed: that collection's walk stops there.
 */
import { HalDocument } from '../../hal/document.js';
import { isJsonObject } from '../../hal/link.js';
import { type CheckContext, type LinkedCollection, SPEC } from '../context.js';
import { OffOriginError, RequestBudgetError } from '../prober.js';
import { missingStatus } from '../requirements.js';
import { Tally } from '../tally.js';
import { type RecordFindings, recordName, validateRecord } from './records.js';

/** Options of {@link checkCollections}. */
export interface CollectionWalk {
  /** Pages read of each collection at most. */
  pages: number;
}

/** Walks the first pages of every linked collection, then adds one check a rule. */
export async function checkCollections(context: CheckContext, walk: CollectionWalk): Promise<void> {
  const tally = new Tally();
  const findings: RecordFindings = { vendorMembers: new Set() };
  const maxPageSize = maxPageSizeOf(context);
  const elsewhere: string[] = [];
  for (const collection of context.collections) {
    try {
      await walkCollection(context, collection, walk, tally, findings, maxPageSize);
    } catch (error) {
      if (error instanceof OffOriginError) {
        elsewhere.push(`${collection.plural}: ${error.url}`);
        continue;
      }
      if (!(error instanceof RequestBudgetError)) throw error;
      tally.skip('collections', 'paging.status', collection.plural, SPEC.collection);
      break;
    }
  }
  if (elsewhere.length > 0) {
    context.add(
      'collections',
      'checker.other-origin',
      'skip',
      `links to another origin than the server under test (${context.origin}), not followed: ${elsewhere.join('; ')}`,
    );
  }
  tally.addTo(context, (_rule, passed) => {
    const count = new Set(passed).size;
    return `${count} collection${count === 1 ? '' : 's'}`;
  });
  if (findings.vendorMembers.size > 0) {
    context.add(
      'records',
      'records.vendor-members',
      'pass',
      `vendor members (allowed, marked by their prefix): ${[...findings.vendorMembers].slice(0, 10).join(', ')}`,
      { spec: SPEC.resources },
    );
  }
}

async function walkCollection(
  context: CheckContext,
  collection: LinkedCollection,
  walk: CollectionWalk,
  tally: Tally,
  findings: RecordFindings,
  maxPageSize: number | undefined,
): Promise<void> {
  const { plural } = collection;
  const area = 'collections';
  const seen = new Set<string>();
  let previousIds: string | undefined;
  let url = collection.link.templated ? collection.link.url({}) : collection.link.url();
  for (let number = 1; number <= walk.pages; number++) {
    seen.add(url);
    const answer = await context.request(url);
    if (answer.status !== 200) {
      tally.problem(
        area,
        'paging.status',
        'fail',
        `${plural}: page ${number} answered ${answer.status}${number > 1 ? ' (a next link that fails)' : ''}`,
        SPEC.collection,
      );
      return;
    }
    tally.pass(area, 'paging.status', plural, SPEC.collection);
    if (answer.text.trim() === '' && number === 1) {
      tally.problem(
        area,
        'paging.json',
        'warn',
        `${plural}: an empty body, where an empty collection is an empty JSON object`,
        SPEC.collection,
      );
      return;
    }
    if (!isJsonObject(answer.json)) {
      tally.problem(
        area,
        'paging.json',
        'fail',
        `${plural}: page ${number} is not a JSON object${answer.jsonError ? ` (${answer.jsonError})` : ''}`,
        SPEC.collection,
      );
      return;
    }
    tally.pass(area, 'paging.json', plural, SPEC.collection);
    const page = HalDocument.parse(answer.json, url, context.entry?.curies);
    checkPageMembers(tally, plural, number, page.body, maxPageSize);
    const records = page.embedded(collection.rel);
    checkEmbedded(tally, collection, page, records.length);
    for (const record of records) {
      if (collection.kind) {
        validateRecord(
          tally,
          plural,
          collection.kind,
          record,
          { extended: context.detected !== undefined, vendorKind: collection.vendorKind },
          findings,
        );
      }
      if (!context.samples.has(plural) && record.selfUrl) context.samples.set(plural, record);
    }
    const ids = records
      .map((record) => record.selfUrl ?? JSON.stringify(record.body.identifiers))
      .join(' ');
    if (records.length > 0 && ids === previousIds) {
      tally.problem(
        area,
        'paging.repeats',
        'fail',
        `${plural}: page ${number} repeats the records of page ${number - 1}`,
        SPEC.collection,
      );
      return;
    }
    previousIds = ids;
    const next = page.link('next');
    if (!next) {
      tally.pass(area, 'paging.next', plural, SPEC.collection);
      break;
    }
    let nextUrl: string;
    try {
      nextUrl = next.url({});
    } catch (error) {
      tally.problem(
        area,
        'paging.next',
        'fail',
        `${plural}: the next link of page ${number} is not a URL (${error instanceof Error ? error.message : String(error)})`,
        SPEC.collection,
      );
      return;
    }
    // A page is known by every URL it was reached or named by (the one fetched, its own
    // self) and by its number: `?page=1` and the bare collection URL are the same page,
    // as the SDK's pager sees them too. A next that names a page number not past this
    // one leads back.
    if (page.selfUrl) seen.add(page.selfUrl);
    const nextNumber = pageNumberIn(nextUrl);
    if (seen.has(nextUrl) || (nextNumber !== undefined && nextNumber <= number)) {
      tally.problem(
        area,
        'paging.next-loops',
        'fail',
        `${plural}: the next link of page ${number} leads back to a page already read (${nextUrl})`,
        SPEC.collection,
      );
      return;
    }
    tally.pass(area, 'paging.next-loops', plural, SPEC.collection);
    if (records.length === 0) {
      tally.problem(
        area,
        'paging.empty-page',
        'warn',
        `${plural}: page ${number} is empty but has a next link (clients must stop on an empty page)`,
        SPEC.notes,
      );
      return;
    }
    if (/[?&]page=\d+/.test(nextUrl)) tally.pass(area, 'paging.next', plural, SPEC.collection);
    else
      tally.problem(
        area,
        'paging.next',
        'warn',
        `${plural}: the next link carries no page=<number> (${nextUrl})`,
        SPEC.collection,
      );
    if (number === 2 || number === walk.pages) checkPrev(tally, plural, page, number);
    url = nextUrl;
  }
  await fetchSample(context, collection, tally);
}

function checkPageMembers(
  tally: Tally,
  plural: string,
  number: number,
  body: Readonly<Record<string, unknown>>,
  maxPageSize: number | undefined,
): void {
  const area = 'collections';
  // What each finding is about, for a known server's departures scoped to a collection.
  const about = (members: string[], missing = false) => ({
    collection: plural,
    members,
    missing,
  });
  if (body.page !== undefined && body.page !== number) {
    tally.problem(
      area,
      'paging.page-number',
      'fail',
      `${plural}: page ${number} says page ${JSON.stringify(body.page)}`,
      SPEC.collection,
      about(['page']),
    );
  } else if (body.page === undefined) {
    tally.problem(
      area,
      'paging.page-number',
      missingStatus('paging.page-number'),
      `${plural}: no page member`,
      SPEC.collection,
      about(['page'], true),
    );
  } else tally.pass(area, 'paging.page-number', plural, SPEC.collection);
  const perPage = body.per_page;
  if (perPage === undefined) {
    tally.problem(
      area,
      'paging.per-page',
      missingStatus('paging.per-page'),
      `${plural}: no per_page`,
      SPEC.collection,
      about(['per_page'], true),
    );
  } else if (!Number.isInteger(perPage)) {
    tally.problem(
      area,
      'paging.per-page',
      'fail',
      `${plural}: per_page is ${JSON.stringify(perPage)}, not an integer`,
      SPEC.collection,
      about(['per_page']),
    );
  } else if (maxPageSize !== undefined && (perPage as number) > maxPageSize) {
    tally.problem(
      area,
      'paging.per-page',
      'fail',
      `${plural}: per_page ${String(perPage)} is above the entry point's max_pagesize ${maxPageSize}`,
      SPEC.limits,
      about(['per_page']),
    );
  } else tally.pass(area, 'paging.per-page', plural, SPEC.collection);
  const { total_pages: pages, total_records: total } = body;
  if (pages === undefined && total === undefined) {
    if (number === 1)
      tally.problem(
        area,
        'paging.totals',
        missingStatus('paging.totals'),
        `${plural}: no total_records or total_pages (allowed in the wild, but clients cannot show progress)`,
        SPEC.notes,
        about(['total_records', 'total_pages'], true),
      );
    return;
  }
  const notInteger = (['total_pages', 'total_records'] as const).filter(
    (member) => body[member] !== undefined && !Number.isInteger(body[member]),
  );
  if (notInteger.length > 0) {
    tally.problem(
      area,
      'paging.totals',
      'fail',
      `${plural}: ${notInteger.map((member) => `${member} is ${JSON.stringify(body[member])}`).join(', ')}, not an integer`,
      SPEC.collection,
      about([...notInteger]),
    );
  } else if (
    Number.isInteger(pages) &&
    Number.isInteger(total) &&
    Number.isInteger(perPage) &&
    (perPage as number) > 0 &&
    pages !==
      Math.max(
        Math.ceil((total as number) / (perPage as number)),
        (total as number) === 0 ? (pages as number) : 1,
      )
  ) {
    tally.problem(
      area,
      'paging.totals',
      'fail',
      `${plural}: total_pages ${String(pages)} does not match total_records ${String(total)} at per_page ${String(perPage)}`,
      SPEC.collection,
      about(['total_pages']),
    );
  } else tally.pass(area, 'paging.totals', plural, SPEC.collection);
}

function checkEmbedded(
  tally: Tally,
  collection: LinkedCollection,
  page: HalDocument,
  count: number,
): void {
  const { plural } = collection;
  const embedded = isJsonObject(page.body._embedded) ? Object.keys(page.body._embedded) : [];
  const others = embedded.filter(
    (key) =>
      !page.hasEmbedded(collection.rel) ||
      page.curies.relationId(key) !== page.curies.relationId(collection.rel),
  );
  if (count === 0 && others.length > 0) {
    tally.problem(
      'collections',
      'paging.embedded',
      'fail',
      `${plural}: records embedded under ${others.join(', ')}, not ${collection.rel}`,
      SPEC.collection,
    );
  } else tally.pass('collections', 'paging.embedded', plural, SPEC.collection);
}

function checkPrev(tally: Tally, plural: string, page: HalDocument, number: number): void {
  const prev = page.link('prev') ?? page.link('previous');
  if (!prev) return;
  let prevUrl: string;
  try {
    prevUrl = prev.url({});
  } catch {
    tally.problem(
      'collections',
      'paging.prev',
      'fail',
      `${plural}: the prev link of page ${number} is not a URL`,
      SPEC.collection,
    );
    return;
  }
  const match = /[?&]page=(\d+)/.exec(prevUrl);
  if (match && Number(match[1]) !== number - 1) {
    tally.problem(
      'collections',
      'paging.prev',
      'fail',
      `${plural}: the prev link of page ${number} names page ${match[1]}`,
      SPEC.collection,
    );
  } else tally.pass('collections', 'paging.prev', plural, SPEC.collection);
}

async function fetchSample(
  context: CheckContext,
  collection: LinkedCollection,
  tally: Tally,
): Promise<void> {
  const sample = context.samples.get(collection.plural);
  const url = sample?.selfUrl;
  if (!sample || !url) return;
  const answer = await context.request(url);
  const area = 'records';
  if (answer.status !== 200 || !isJsonObject(answer.json)) {
    tally.problem(
      area,
      'records.self-fetch',
      'fail',
      `${collection.plural}: GET of ${recordName(sample)}'s self answered ${answer.status}${answer.status === 200 ? ' without a JSON object' : ''}`,
      SPEC.common,
    );
    return;
  }
  const again = HalDocument.parse(answer.json, url, context.entry?.curies);
  const same = JSON.stringify(again.body.identifiers) === JSON.stringify(sample.body.identifiers);
  if (same) tally.pass(area, 'records.self-fetch', collection.plural, SPEC.common);
  else
    tally.problem(
      area,
      'records.self-fetch',
      'fail',
      `${collection.plural}: the self of ${recordName(sample)} answers another record (identifiers differ)`,
      SPEC.common,
    );
}

/** The `page=<n>` of a URL's query, if any. */
function pageNumberIn(url: string): number | undefined {
  const match = /[?&]page=(\d+)(&|$)/.exec(url);
  return match ? Number(match[1]) : undefined;
}

function maxPageSizeOf(context: CheckContext): number | undefined {
  const body = context.entry?.body;
  const value = body?.max_pagesize ?? body?.max_page_size;
  return Number.isInteger(value) ? (value as number) : undefined;
}
