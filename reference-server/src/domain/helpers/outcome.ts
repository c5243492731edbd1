/**
 * What a helper call answers, from what it wrote: the main record, the person, and the
 * parts (action functions). The rules (contract "Responses"):
 *
 * - keyed, every part fine: the main record's status (201 created; a signup that
 *   updated its person 200), `Location` when created, the main record with the person
 *   embedded as `_embedded['std:person']`;
 * - keyed, some part failed: 400 with a non-atomic `std:error` listing the person, the
 *   main record and every part, and beside it `std:person` and `std:<main kind>`;
 * - without a key: 200 `{}` when complete, else 400 with a non-atomic `std:error` that
 *   lists only the parts that failed ({@link keylessStatuses}): never the person or the
 *   main record, never a part that succeeded (its 201 or 200 would say whether the
 *   person already had the tag). The answer is the same whether the email address is on
 *   file or new, whether a closed tag exists or not: a page learns nothing stored.
 */
import type { JsonObject, StoredRecord } from '../../storage/storage.js';
import { nonAtomicErrorBody, type ResourceStatus } from '../errors.js';
import type { ResourceKind } from '../kinds.js';

/** A record a helper wrote (or, for a canvass target, only read). */
export interface WrittenRecord {
  kind: ResourceKind;
  record: StoredRecord;
  /** 201 created, 200 updated or unchanged; undefined when the call did not write it. */
  status?: number;
}

/** Everything a helper call did. */
export interface HelperOutcome {
  /** The main record: the signature, outreach, …; the person for person signup. */
  main: WrittenRecord;
  /** The person the call is about, when it is not the main record itself. */
  person?: WrittenRecord;
  /** One status per action function run. */
  parts: ResourceStatus[];
}

/** The HTTP answer to give, rendering left to the caller. */
export interface HelperAnswer {
  status: number;
  body: JsonObject;
  /** The href of the main record, for `Location`, when the call created it. */
  location?: StoredRecord;
}

/** How records are shown in the answer (full, or minimal for `return_response: false`). */
export interface AnswerOptions {
  anonymous: boolean;
  returnResponse: boolean;
  present(kind: ResourceKind, record: StoredRecord): JsonObject;
}

/**
 * Whether every part succeeded.
 */
export function isComplete(outcome: HelperOutcome): boolean {
  return outcome.parts.every((part) => part.response_code < 400);
}

/**
 * The resource statuses of a non-atomic answer: the person, the main record, the parts.
 */
export function outcomeStatuses(outcome: HelperOutcome): ResourceStatus[] {
  const written = [outcome.person, outcome.main].flatMap((entry) =>
    entry?.status === undefined
      ? []
      : [{ resource: `std:${entry.kind.singular}`, response_code: entry.status }],
  );
  return [...written, ...outcome.parts];
}

/**
 * The resource statuses a call without a key is answered with: the failed parts only.
 * Whether a part fails never depends on the person (an element fails when it names no
 * record open to the caller, or an answer does not fit its question).
 */
export function keylessStatuses(outcome: HelperOutcome): ResourceStatus[] {
  return outcome.parts.filter((part) => part.response_code >= 400);
}

/**
 * The answer to a helper call by the rules at the top of this module.
 */
export function helperAnswer(outcome: HelperOutcome, options: AnswerOptions): HelperAnswer {
  const { main, person } = outcome;
  const complete = isComplete(outcome);
  if (options.anonymous) {
    return complete
      ? { status: 200, body: {} }
      : { status: 400, body: nonAtomicErrorBody(keylessStatuses(outcome)) };
  }
  const location = main.status === 201 ? main.record : undefined;
  const mainBody = options.present(main.kind, main.record);
  const personBody = person ? options.present(person.kind, person.record) : undefined;
  if (complete) {
    const body =
      personBody && options.returnResponse
        ? { ...mainBody, _embedded: { 'std:person': personBody } }
        : mainBody;
    return { status: main.status ?? 200, body, ...(location ? { location } : {}) };
  }
  const beside: JsonObject = personBody
    ? { 'std:person': personBody, [`std:${main.kind.singular}`]: mainBody }
    : { [`std:${main.kind.singular}`]: mainBody };
  return {
    status: 400,
    body: { ...nonAtomicErrorBody(outcomeStatuses(outcome)), ...beside },
    ...(location ? { location } : {}),
  };
}
