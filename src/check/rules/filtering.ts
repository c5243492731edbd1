/**
 * Filtering, the OData subset servers in the wild share: `filter=modified_date gt
 * '<date>'` and `lt`, on the first collection with records. A date long past must keep
 * the records and a date far ahead drop them all; a 400 says the server does not filter
 * (a warn: the specification leaves filtering open).
 */
import { HalDocument } from '../../hal/document.js';
import { isJsonObject } from '../../hal/link.js';
import { withQueryParameter } from '../../hal/uri.js';
import { type CheckContext, SPEC } from '../context.js';
import { RequestBudgetError } from '../prober.js';

const PAST = '2000-01-01T00:00:00Z';
const FUTURE = '2999-01-01T00:00:00Z';

/** Checks `modified_date gt` and `lt` on a collection that has records. */
export async function checkFiltering(context: CheckContext): Promise<void> {
  const collection = context.collections.find(
    (candidate) => context.samples.has(candidate.plural) && !candidate.vendorKind,
  );
  if (!collection) {
    context.add(
      'filtering',
      'filtering.modified-date',
      'skip',
      'no collection with records to filter',
      { spec: SPEC.filtering },
    );
    return;
  }
  const base = collection.link.url({});
  const count = async (filter: string): Promise<number | string> => {
    const url = withQueryParameter(base, 'filter', filter);
    const answer = await context.request(url);
    if (answer.status !== 200 || !isJsonObject(answer.json)) return `answered ${answer.status}`;
    return HalDocument.parse(answer.json, url, context.entry?.curies).embedded(collection.rel)
      .length;
  };
  try {
    const results: string[] = [];
    let status: 'pass' | 'warn' | 'fail' = 'pass';
    let ignored = 0;
    for (const [filter, wantRecords] of [
      [`modified_date gt '${PAST}'`, true],
      [`modified_date gt '${FUTURE}'`, false],
      [`modified_date lt '${FUTURE}'`, true],
      [`modified_date lt '${PAST}'`, false],
    ] as const) {
      const found = await count(filter);
      if (typeof found === 'string') {
        status = 'warn';
        results.push(`${filter} ${found}`);
      } else if (found > 0 !== wantRecords) {
        if (wantRecords) status = 'fail';
        else ignored++;
        results.push(
          `${filter} gave ${found} records, where ${wantRecords ? 'some' : 'none'} were due`,
        );
      }
    }
    // Both filters that should empty the page kept it: the filter is ignored, which the
    // specification allows (it leaves filtering open) but a sync by date cannot use.
    if (ignored > 0 && status !== 'fail') {
      status = ignored === 2 ? 'warn' : 'fail';
      if (ignored === 2)
        results.push('the filter parameter is ignored: an incremental sync would read everything');
    }
    context.add(
      'filtering',
      'filtering.modified-date',
      status,
      status === 'pass'
        ? `${collection.plural}: modified_date gt and lt filter as asked`
        : `${collection.plural}: ${results.join('; ')}`,
      { spec: SPEC.filtering, url: base },
    );
  } catch (error) {
    if (!(error instanceof RequestBudgetError)) throw error;
    context.add('filtering', 'filtering.modified-date', 'skip', error.message, {
      spec: SPEC.filtering,
    });
  }
}
