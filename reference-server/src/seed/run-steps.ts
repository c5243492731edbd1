/**
 * Runs a seed's steps (steps.ts): turns them, in order, into records to create, and
 * creates each through the {@link Creator}.
 *
 * Planning and creating are apart: {@link planRecords} is a generator that yields each
 * record to create and is handed back the record created (later steps link to it), and
 * {@link runSteps} is the one loop that calls the creator. When record creation becomes
 * asynchronous, that loop awaits it and nothing else changes.
 */
import type { JsonObject, StoredRecord } from '../storage/storage.js';
import type { Chooser } from './chooser.js';
import type { Creator } from './creator.js';
import { ago } from './dates.js';
import {
  type ActContext,
  type ActStep,
  ANYONE,
  type Fields,
  type LinkTo,
  type PeopleChoice,
  type RecordStep,
  type SeedContext,
  SOMEONE_ELSE,
  type Step,
  THE_ACT,
  THE_ACTOR,
} from './steps.js';

/** One record to create: its kind, its fields and the records it links to. */
export interface RecordToCreate {
  singular: string;
  fields: JsonObject;
  links: Record<string, StoredRecord | undefined>;
}

/**
 * Runs `steps` in order through `creator`, with `people` (the tenant's, first two named
 * `organizer` and `second organizer`) and the PRNG choices of `choose`.
 */
export async function runSteps(
  steps: readonly Step[],
  creator: Creator,
  choose: Chooser,
  people: readonly StoredRecord[],
  now: Date,
): Promise<void> {
  const plan = planRecords(steps, choose, people, now);
  let next = plan.next();
  while (!next.done) {
    const { singular, fields, links } = next.value;
    next = plan.next(await creator.create(singular, fields, links));
  }
}

/**
 * The records `steps` create, in order: yields each and expects the created record back.
 */
export function* planRecords(
  steps: readonly Step[],
  choose: Chooser,
  people: readonly StoredRecord[],
  now: Date,
): Generator<RecordToCreate, void, StoredRecord> {
  const context: SeedContext = {
    choose,
    now,
    recently: (days) => ago(now, choose.int(1, days * 24 * 60) / (24 * 60)),
  };
  const named = new Map<string, StoredRecord | undefined>([
    ['organizer', people[0]],
    ['second organizer', people[1]],
  ]);
  const groups = new Map<string, StoredRecord[]>();

  const pickFrom = (pool: readonly StoredRecord[]) => (pool.length ? choose.pick(pool) : undefined);

  function resolve(
    links: Record<string, LinkTo>,
    actor?: StoredRecord,
    act?: StoredRecord,
  ): Record<string, StoredRecord | undefined> {
    const out: Record<string, StoredRecord | undefined> = {};
    for (const [rel, to] of Object.entries(links)) {
      if (to === ANYONE) out[rel] = pickFrom(people);
      else if (to === SOMEONE_ELSE) out[rel] = pickFrom(people.filter((p) => p !== actor));
      else if (to === THE_ACTOR || to === THE_ACT) {
        const record = to === THE_ACTOR ? actor : act;
        if (!record) throw new Error(`${String(to)} is linked outside an act (${rel})`);
        out[rel] = record;
      } else if (named.has(to)) out[rel] = named.get(to);
      else throw new Error(`no earlier step is named ${to} (${rel})`);
    }
    return out;
  }

  function whoActs(by: PeopleChoice): StoredRecord[] {
    if ('group' in by) return groups.get(by.group) ?? [];
    const left = by.except ? (groups.get(by.except) ?? []) : [];
    const pool = people.filter((person) => !left.includes(person));
    const count = typeof by.count === 'number' ? by.count : choose.int(by.count[0], by.count[1]);
    return choose.sample(pool, count);
  }

  function* record<C extends SeedContext>(
    step: RecordStep<C>,
    stepContext: C,
    actor?: StoredRecord,
    act?: StoredRecord,
  ): Generator<RecordToCreate, void, StoredRecord> {
    if (step.when && !step.when(stepContext)) return;
    const fields = fieldsOf(step.fields, stepContext);
    const links = resolve(step.links ?? {}, actor, act);
    const created = yield { singular: step.create, fields, links };
    if (step.name) named.set(step.name, created);
  }

  function* acts(step: ActStep): Generator<RecordToCreate, void, StoredRecord> {
    for (const [index, person] of whoActs(step.by).entries()) {
      const actContext: ActContext = { ...context, person, index };
      const links = resolve(step.links, person);
      const fields = fieldsOf(step.fields, actContext);
      const act = yield { singular: step.act, fields, links };
      const remember = step.remember;
      if (remember && (remember.when?.(fields) ?? true)) {
        const group = groups.get(remember.group) ?? [];
        if (!group.includes(person)) group.push(person);
        groups.set(remember.group, group);
      }
      for (const next of step.followUps ?? []) {
        yield* record(next, { ...actContext, act: fields }, person, act);
      }
    }
  }

  for (const step of steps) {
    if (step.choose !== undefined) groups.set(step.choose, choose.sample(people, step.count));
    else if (step.create !== undefined) yield* record(step, context);
    else yield* acts(step);
  }
}

function fieldsOf<C>(fields: Fields<C>, context: C): JsonObject {
  return typeof fields === 'function' ? fields(context) : { ...fields };
}
