/**
 * The relations of sample records: every linked collection answers a collection
 * document, every linked record a record. Helper relations (POST only) are left to the
 * write checks, and links to another origin than the server under test are not
 * followed (listed as such).
 */
import { HalDocument } from '../../hal/document.js';
import { isJsonObject } from '../../hal/link.js';
import { KINDS } from '../../schema/kinds/index.js';
import { type CheckContext, onOrigin, SPEC } from '../context.js';
import { RequestBudgetError } from '../prober.js';
import { Tally } from '../tally.js';
import { recordName } from './records.js';

const PLURALS = new Set<string>(KINDS.map((kind) => kind.plural));
const SINGULARS = new Set<string>(KINDS.map((kind) => kind.singular));
/** The collections whose sample records are followed, in this order. */
const SAMPLED = ['people', 'petitions', 'events'];
const PER_RECORD = 8;

/** Follows the relations of up to three sample records. */
export async function checkRelations(context: CheckContext): Promise<void> {
  const tally = new Tally();
  const samples = SAMPLED.map((plural) => context.samples.get(plural)).filter(
    (sample) => sample !== undefined,
  );
  if (samples.length === 0) {
    context.add(
      'relations',
      'relations.answer',
      'skip',
      'no record of people, petitions or events to follow the relations of',
      { spec: SPEC.resources },
    );
    return;
  }
  const elsewhere: string[] = [];
  try {
    for (const sample of samples) {
      let followed = 0;
      for (const rel of sample.relations()) {
        const name = rel.slice(rel.indexOf(':') + 1);
        const collection = PLURALS.has(name);
        if (rel === 'self' || (!collection && !SINGULARS.has(name))) continue;
        if (followed++ >= PER_RECORD) break;
        const link = sample.link(rel);
        if (!link) continue;
        const url = link.url({});
        const subject = `${rel} of ${recordName(sample)}`;
        if (!onOrigin(url, context.origin)) {
          elsewhere.push(`${subject}: ${url}`);
          continue;
        }
        const answer = await context.request(url);
        if (answer.status !== 200 || !isJsonObject(answer.json)) {
          tally.problem(
            'relations',
            'relations.answer',
            'fail',
            `${subject} answered ${answer.status}${answer.status === 200 ? ', not a JSON object' : ''}`,
            SPEC.resources,
          );
          continue;
        }
        const document = HalDocument.parse(answer.json, url, context.entry?.curies);
        const isPage =
          document.hasEmbedded(rel) ||
          'per_page' in document.body ||
          'page' in document.body ||
          Object.keys(document.body).length === 0;
        if (collection && !isPage) {
          tally.problem(
            'relations',
            'relations.answer',
            'fail',
            `${subject} answered no collection document`,
            SPEC.collection,
          );
        } else tally.pass('relations', 'relations.answer', rel, SPEC.resources);
      }
    }
  } catch (error) {
    if (!(error instanceof RequestBudgetError)) throw error;
  }
  tally.addTo(
    context,
    (_rule, passed) => `${passed.length} relations of ${samples.length} sample records answer`,
  );
  if (elsewhere.length > 0) {
    context.add(
      'relations',
      'checker.other-origin',
      'skip',
      `links to another origin than the server under test (${context.origin}), not followed: ${elsewhere.slice(0, 5).join('; ')}${elsewhere.length > 5 ? `; and ${elsewhere.length - 5} more` : ''}`,
    );
  }
}
