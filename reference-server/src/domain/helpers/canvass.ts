/**
 * The record canvass helper's own rules. The target is the person in the URL (it
 * already exists and is never changed); the canvass fields come nested in `canvass`:
 *
 * - `contact_type` and `input_type` must be codes of the server's metadata lists
 *   (`canvass_contact_types`, `canvass_input_types`), else 400 INVALID_PROPERTY: a
 *   canvass with a code no client can look up cannot be reported on;
 * - the canvasser, when given, is either inlined as `canvasser` (matched or created like
 *   any helper person) or linked as `_links: { "std:canvasser": { "href" } }` inside
 *   `canvass` (any prefix, as every write takes links: see `body-links.ts`), to an
 *   existing person of the tenant (else 400 INVALID_LINK at `canvass._links.std:canvasser`),
 *   which is linked as it is. Both at once is 400 INVALID_PROPERTY: which one is meant?
 * - a `question_response` becomes an answer of the target to the question, linked to
 *   the canvass, checked like any answer; a question that does not exist is 400
 *   QUESTION_DOES_NOT_EXIST. Both belong to the canvass: if either fails, nothing is
 *   written.
 */
import type { JsonObject, StoredRecord } from '../../storage/storage.js';
import { ApiError, ErrorCode, type ErrorDescription } from '../errors.js';
import { isPlainObject } from '../merge.js';
import { CONTACT_TYPES, INPUT_TYPES } from '../metadata.js';
import { personKind } from '../person.js';
import { findQuestion, questionMissing, recordAnswer } from './action-functions.js';
import { bodyLinks } from './body-links.js';
import type { HelperContext } from './context.js';
import { type HelperBody, helperPerson, mainFields, type PreparedRecord } from './main-record.js';

const CODE_LISTS = [
  { member: 'contact_type', codes: CONTACT_TYPES.map((entry) => entry.contact_type) },
  { member: 'input_type', codes: INPUT_TYPES.map((entry) => entry.input_type) },
] as const;

/**
 * Codes of a canvass that are not in the server's metadata lists.
 *
 * @example
 * ```ts
 * import { canvassCodeProblems } from './canvass.js';
 *
 * canvassCodeProblems({ contact_type: 'fax' }); // [{ error_code: 'INVALID_PROPERTY', properties: ['canvass.contact_type'], … }]
 * ```
 */
export function canvassCodeProblems(canvass: JsonObject): ErrorDescription[] {
  const problems: ErrorDescription[] = [];
  for (const { member, codes } of CODE_LISTS) {
    const value = canvass[member];
    if (typeof value !== 'string' || (codes as readonly string[]).includes(value)) continue;
    problems.push({
      error_code: ErrorCode.INVALID_PROPERTY,
      description: `canvass.${member}: ${JSON.stringify(value)} is not a code of canvass_${member}s`,
      properties: [`canvass.${member}`],
      hint: `one of ${codes.map((code) => JSON.stringify(code)).join(', ')}`,
    });
  }
  return problems;
}

/** Records the target's answer to the canvass's question, or throws a 400. */
async function answerQuestion(
  context: HelperContext,
  response: JsonObject,
  target: StoredRecord,
  canvass: StoredRecord,
): Promise<void> {
  const property = 'canvass.question_response';
  const sent = response.question;
  const reference = isPlainObject(sent) ? sent.href : sent;
  const question =
    typeof reference === 'string' ? await findQuestion(context, reference) : undefined;
  if (!question) throw new ApiError(400, [questionMissing(reference, property)], 'std:answer');
  const problems = await recordAnswer(
    context,
    question,
    response,
    { person: target, canvass },
    property,
  );
  if (problems.length > 0) throw new ApiError(400, problems, 'std:answer');
}

/**
 * Prepares a canvass of `target` from a record canvass helper body.
 */
export async function prepareCanvass(
  context: HelperContext,
  body: HelperBody,
  target: StoredRecord,
): Promise<PreparedRecord> {
  const canvass = isPlainObject(body.canvass) ? body.canvass : {};
  const problems = canvassCodeProblems(canvass);
  if (problems.length > 0) throw new ApiError(400, problems, 'std:canvass');
  const { canvasser, question_response: response, _links, ...fields } = canvass;
  const linked = bodyLinks(context, _links, ['canvasser']);
  if (isPlainObject(canvasser) && linked.canvasser) {
    throw new ApiError(
      400,
      [
        {
          error_code: ErrorCode.INVALID_PROPERTY,
          description: 'the canvasser is given twice: inline and as a link',
          properties: ['canvass.canvasser', 'canvass._links.std:canvasser'],
          hint: 'send one of them',
        },
      ],
      'std:canvass',
    );
  }
  const prepared: PreparedRecord = {
    fields: mainFields(context, fields, body.triggers),
    links: linked,
    person: { record: target },
    // Link problems are reported where the links were: canvass._links.std:canvasser.
    linksAt: 'canvass.',
  };
  if (isPlainObject(canvasser)) {
    const person = await helperPerson(context, canvasser);
    prepared.links = { canvasser: { plural: personKind.plural, id: person.record.id } };
  }
  if (isPlainObject(response)) {
    prepared.after = (main) => answerQuestion(context, response, target, main);
  }
  return prepared;
}
