/**
 * The helper action functions (spec, "Helper action functions"): tags, lists and
 * answers applied to the person of a helper call, after its main record is written.
 *
 * Each function present in the body is one part of a non-atomic request, run in its own
 * transaction: every element is checked first, and when any fails none of that
 * function's rows are written; its resource status lists every failing element
 * (`add_tags[1]`). The other parts go on. `triggers` are not a part: the helper records
 * them on its main record (nothing is sent by this server).
 */
import type { JsonObject, ParentRef, StoredRecord } from '../../storage/storage.js';
import {
  ApiError,
  ErrorCode,
  type ErrorCodeValue,
  type ErrorDescription,
  type ResourceStatus,
} from '../errors.js';
import type { ResourceKind } from '../kinds.js';
import { type LinkInput, referencesOf } from '../records/index.js';
import { type HelperContext, kindOf } from './context.js';
import { mayApply } from './keyless.js';
import { nameKey, type OpenableKind } from './keyless-openings.js';

/** One entry of `add_questions_responses_uri`, or a canvass's `question_response`. */
export interface QuestionResponse {
  responses?: readonly string[] | null;
  value?: string | null;
}

/** The action function members of a helper body, as its schema parsed them. */
export interface ActionFunctionValues {
  add_tags?: readonly string[] | null;
  add_tags_uri?: readonly string[] | null;
  add_lists?: readonly string[] | null;
  add_lists_uri?: readonly string[] | null;
  add_questions_responses_uri?: readonly (QuestionResponse & { question: string })[] | null;
  /** Action Network's: names of tags to take off the person (bodies take it under its preset). */
  remove_tags?: readonly string[] | null;
  triggers?: unknown;
}

/** Whom the action functions apply to. */
export interface ActionTarget {
  /** The person tagged, listed and answering (for a canvass: its target). */
  person: StoredRecord;
  /** The canvass that recorded them, linked from its taggings and answers. */
  canvass?: StoredRecord;
}

/** A function that adds the person to records found by name or href (tags, lists). */
interface LinkFunction {
  name: 'add_tags' | 'add_tags_uri' | 'add_lists' | 'add_lists_uri';
  /** How elements name their record. */
  by: 'name' | 'uri';
  /** The kind named (`tag`) and the kind created to link it to the person (`tagging`). */
  kind: OpenableKind;
  via: string;
  missing: ErrorCodeValue;
}

const LINK_FUNCTIONS: readonly LinkFunction[] = [
  {
    name: 'add_tags',
    by: 'name',
    kind: 'tag',
    via: 'tagging',
    missing: ErrorCode.TAG_NAME_DOES_NOT_EXIST,
  },
  {
    name: 'add_tags_uri',
    by: 'uri',
    kind: 'tag',
    via: 'tagging',
    missing: ErrorCode.TAG_URI_DOES_NOT_EXIST,
  },
  {
    name: 'add_lists',
    by: 'name',
    kind: 'list',
    via: 'item',
    missing: ErrorCode.LIST_NAME_DOES_NOT_EXIST,
  },
  {
    name: 'add_lists_uri',
    by: 'uri',
    kind: 'list',
    via: 'item',
    missing: ErrorCode.LIST_URI_DOES_NOT_EXIST,
  },
];

/** Thrown inside a part's transaction to roll it back after its checks failed. */
const ROLLBACK = Symbol('rollback');

/**
 * Runs one part in its own transaction. `body` pushes every problem to `errors` and
 * returns how many rows it wrote; with any problem the whole part is rolled back.
 */
async function runPart(
  context: HelperContext,
  resource: string,
  body: (errors: ErrorDescription[]) => Promise<number>,
): Promise<ResourceStatus> {
  const errors: ErrorDescription[] = [];
  let written = 0;
  try {
    await context.records.storage.transaction(async () => {
      written = await body(errors);
      if (errors.length > 0) throw ROLLBACK;
    });
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  if (errors.length > 0) return { resource, response_code: 400, error_descriptions: errors };
  // 201 when something was created; 200 when the person already had everything.
  return { resource, response_code: written > 0 ? 201 : 200 };
}

function ref(kind: ResourceKind, record: StoredRecord): { plural: string; id: string } {
  return { plural: kind.plural, id: record.id };
}

/**
 * The id of the tenant's record of `kind` an element names, by name or by href; for a
 * call without a key, only a record the operator opened to it (`keyless.ts`): any other
 * is not found, as a record that does not exist.
 */
async function findNamed(
  context: HelperContext,
  fn: LinkFunction,
  element: string,
): Promise<string | undefined> {
  const { storage } = context.records;
  const tenantId = context.tenant.id;
  if (fn.by === 'name') {
    // Closed to this caller: not even looked up.
    if (!mayApply(context, fn.kind, element)) return undefined;
    // Names are unique per tenant ignoring case (catalog's name key): one match at most.
    // The record found is read next (its links, its totals): it comes with the look-up.
    const found = await storage.records.findByKey(tenantId, fn.kind, 'name', nameKey(element), {
      read: true,
    });
    return found[0];
  }
  const target = context.resolveHref(element);
  const kind = target && context.records.registry.byPlural(target.plural);
  if (!target || kind?.singular !== fn.kind) return undefined;
  const record = await storage.records.get(tenantId, fn.kind, target.id);
  return record && mayApply(context, fn.kind, record.doc.name) ? record.id : undefined;
}

/** Why an element named nothing, and what to do, as a caller with or without a key reads it. */
function missingHint(context: HelperContext, fn: LinkFunction): string {
  if (context.anonymous) {
    return `a call without a key applies only the ${fn.kind}s the server opens to such calls`;
  }
  return fn.by === 'name'
    ? `create the ${fn.kind} first (POST to the ${fn.kind}s collection)`
    : `use the self href of one of your ${fn.kind}s`;
}

/** Ids of the records of `kind` the person is already linked to through `via` records. */
async function linkedAlready(
  context: HelperContext,
  person: ParentRef,
  fn: LinkFunction,
): Promise<Set<string>> {
  const { storage } = context.records;
  const linked = new Set<string>();
  for (const child of await storage.records.childrenOf(context.tenant.id, person)) {
    if (child.kind !== fn.via) continue;
    const record = await storage.records.get(context.tenant.id, child.kind, child.id);
    const target = record ? referencesOf(record.doc)[fn.kind] : undefined;
    if (target) linked.add(target.id);
  }
  return linked;
}

function runLinkFunction(
  context: HelperContext,
  fn: LinkFunction,
  elements: readonly string[],
  target: ActionTarget,
): Promise<ResourceStatus> {
  const via = kindOf(context, fn.via);
  return runPart(context, `std:${fn.via}`, async (errors) => {
    const ids: (string | undefined)[] = [];
    for (const [index, element] of elements.entries()) {
      const id = await findNamed(context, fn, element);
      if (id === undefined) {
        errors.push({
          error_code: fn.missing,
          description: `no ${fn.kind} ${fn.by === 'name' ? 'named' : 'at'} ${JSON.stringify(element)}`,
          properties: [`${fn.name}[${index}]`],
          hint: missingHint(context, fn),
        });
      }
      ids.push(id);
    }
    if (errors.length > 0) return 0;
    const person = { kind: 'person', id: target.person.id };
    const linked = await linkedAlready(context, person, fn);
    let written = 0;
    for (const id of ids) {
      if (id === undefined || linked.has(id)) continue;
      linked.add(id);
      const links: Record<string, { plural: string; id: string }> = {
        [fn.kind]: { plural: kindOf(context, fn.kind).plural, id },
        person: ref(kindOf(context, 'person'), target.person),
      };
      // A tagging remembers the canvass that tagged; a list item has no such link.
      if (target.canvass && via.references.some((r) => r.rel === 'canvass')) {
        links.canvass = ref(kindOf(context, 'canvass'), target.canvass);
      }
      await context.records.create(context.tenant, via, {}, { now: context.now, links });
      written++;
    }
    return written;
  });
}

/**
 * The question a helper names: by the href of the question, or by an identifier it
 * carries (`<namespace>:<id>` or a foreign one), in the caller's tenant.
 */
export async function findQuestion(
  context: HelperContext,
  question: string,
): Promise<StoredRecord | undefined> {
  const { storage, registry } = context.records;
  const tenantId = context.tenant.id;
  const target = context.resolveHref(question);
  const id = target
    ? registry.byPlural(target.plural)?.singular === 'question'
      ? target.id
      : undefined
    : await storage.records.findByIdentifier(tenantId, 'question', question);
  return id === undefined ? undefined : storage.records.get(tenantId, 'question', id);
}

/**
 * The problem of a question reference that names no question of the tenant.
 *
 * @example
 * ```ts
 * import { questionMissing } from './action-functions.js';
 *
 * questionMissing('adis:nope', 'add_questions_responses_uri[2]');
 * // { error_code: 'QUESTION_DOES_NOT_EXIST', properties: ['add_questions_responses_uri[2].question'], … }
 * ```
 */
export function questionMissing(reference: unknown, property: string): ErrorDescription {
  return {
    error_code: ErrorCode.QUESTION_DOES_NOT_EXIST,
    description: `no question ${JSON.stringify(reference)}`,
    properties: [`${property}.question`],
    hint: "the question's self href, or an identifier it carries (<namespace>:<id>)",
  };
}

/**
 * Creates the answer of `person` to `question` (linked to `canvass` when given), checked
 * like any answer by the catalog's rule, plus the helpers' rule that a Paragraph
 * question needs a `value`. Returns the problems, their properties below `property`
 * (`add_questions_responses_uri[0].responses[1]`); nothing is written when there are any.
 */
export async function recordAnswer(
  context: HelperContext,
  question: StoredRecord,
  response: QuestionResponse,
  target: ActionTarget,
  property: string,
): Promise<ErrorDescription[]> {
  if (question.doc.question_type === 'Paragraph' && !response.value) {
    return [
      {
        error_code: ErrorCode.INVALID_ANSWER,
        description: 'a Paragraph question takes a value',
        properties: [`${property}.value`],
      },
    ];
  }
  const answer = kindOf(context, 'answer');
  const fields: JsonObject = {};
  if (response.responses) fields.responses = [...response.responses];
  if (response.value !== undefined && response.value !== null) fields.value = response.value;
  const links: LinkInput = {
    question: ref(kindOf(context, 'question'), question),
    person: ref(kindOf(context, 'person'), target.person),
    ...(target.canvass ? { canvass: ref(kindOf(context, 'canvass'), target.canvass) } : {}),
  };
  try {
    await context.records.create(context.tenant, answer, answer.parse(fields), {
      now: context.now,
      links,
    });
    return [];
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    return error.errors.map((description) => ({
      ...description,
      properties: (description.properties ?? []).map((p) => `${property}.${p}`),
    }));
  }
}

/**
 * `remove_tags`: the person's taggings of the tags named are deleted. A name that names
 * no tag, or a tag the person does not carry, leaves nothing to remove and is not an
 * error (Action Network documents none); the part answers 200 either way. Keyed calls
 * only: a call without a key that sends it is refused before anything is written
 * (`keyless.ts`).
 */
function runRemoveTags(
  context: HelperContext,
  names: readonly string[],
  target: ActionTarget,
): Promise<ResourceStatus> {
  const { storage } = context.records;
  const tenantId = context.tenant.id;
  const tagging = kindOf(context, 'tagging');
  return runPart(context, `std:${tagging.singular}`, async () => {
    const tags = new Set<string>();
    for (const name of names) {
      const key = nameKey(name);
      for (const id of await storage.records.findByKey(tenantId, 'tag', 'name', key)) tags.add(id);
    }
    const person = { kind: 'person', id: target.person.id };
    for (const child of await storage.records.childrenOf(tenantId, person)) {
      if (child.kind !== tagging.singular) continue;
      const record = await storage.records.get(tenantId, child.kind, child.id);
      const tag = record ? referencesOf(record.doc).tag : undefined;
      if (tag && tags.has(tag.id)) {
        await context.records.delete(context.tenant, tagging, child.id, context.now);
      }
    }
    // Nothing created: a removal answers 200, as a call that finds nothing to add.
    return 0;
  });
}

function runQuestionResponses(
  context: HelperContext,
  elements: NonNullable<ActionFunctionValues['add_questions_responses_uri']>,
  target: ActionTarget,
): Promise<ResourceStatus> {
  return runPart(context, 'std:answer', async (errors) => {
    let written = 0;
    for (const [index, element] of elements.entries()) {
      const property = `add_questions_responses_uri[${index}]`;
      const question = await findQuestion(context, element.question);
      if (!question) {
        errors.push(questionMissing(element.question, property));
        continue;
      }
      // Each answer in its own savepoint: later elements are still checked.
      const problems = await recordAnswer(context, question, element, target, property);
      errors.push(...problems);
      if (problems.length === 0) written++;
    }
    return written;
  });
}

/**
 * Runs the action functions of a helper body in order (tags, tag URIs, lists, list URIs,
 * then the tags to remove, question responses), each as its own part, and returns one
 * resource status per function present. `remove_tags` comes after the tags added, so a
 * tag named in both is off the person at the end.
 */
export async function runActionFunctions(
  context: HelperContext,
  values: ActionFunctionValues,
  target: ActionTarget,
): Promise<ResourceStatus[]> {
  const statuses: ResourceStatus[] = [];
  for (const fn of LINK_FUNCTIONS) {
    const elements = values[fn.name];
    if (elements) statuses.push(await runLinkFunction(context, fn, elements, target));
  }
  if (values.remove_tags) statuses.push(await runRemoveTags(context, values.remove_tags, target));
  const responses = values.add_questions_responses_uri;
  if (responses) statuses.push(await runQuestionResponses(context, responses, target));
  return statuses;
}
