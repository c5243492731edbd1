import * as z from 'zod/mini';
import type { Collection } from '../navigator/collection.js';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { actionFields } from './action-fields.js';
import { type Answer, type AnswerInput, type AnswerResource, answerKind } from './answer.js';
import { EVEN_WITH_INVALID_MEMBERS } from './content-fields.js';
import {
  bool,
  commonFields,
  HELPER_COMPUTED_FIELDS,
  type Mode,
  optional,
  resourceSchemas,
} from './fields.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type Tagging, type TaggingInput, type TaggingResource, taggingKind } from './tagging.js';

/**
 * The canvass's fields: those of the Record Canvass Helper's `canvass` object, less the
 * canvasser (linked as `std:canvasser`) and the question response (stored as the
 * answers it creates, which link the canvass). `contact_type`, `input_type` and
 * `status_code` are codes of the metadata lists (`canvass_contact_types`,
 * `canvass_input_types`, `canvass_response_codes`); the server checks them against
 * its lists, the schema only that they are strings.
 */
function canvassShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...actionFields(mode),
    contact_type: optional(z.string()),
    input_type: optional(z.string()),
    success: optional(bool(mode)),
    status_code: optional(z.string()),
  };
}

const canvassSchemas = resourceSchemas(canvassShape, HELPER_COMPUTED_FIELDS);

/**
 * A canvass (one attempt to contact a person) as the SDK reads it from any server:
 * unknown members kept, `success` as a boolean or `"true"`/`"false"`.
 *
 * @example
 * ```ts
 * import { CanvassSchema } from 'adis-sdk';
 * CanvassSchema.parse({ success: 'false', status_code: 'not_home' }).success; // false
 * ```
 */
export const CanvassSchema = canvassSchemas.read;

/**
 * A canvass as a client sends it on create and update: no unknown members, and, when
 * both are sent, `success` agreeing with `status_code` (the spec: an empty or missing
 * status code means the contact was successful), a custom issue at `status_code`
 * otherwise.
 *
 * @example
 * ```ts
 * import { CanvassWriteSchema } from 'adis-sdk';
 * CanvassWriteSchema.safeParse({ success: true, status_code: 'not_home' }).success; // false
 * CanvassWriteSchema.safeParse({ success: false, status_code: 'not_home' }).success; // true
 * ```
 */
export const CanvassWriteSchema = canvassSchemas.write.check(
  z.superRefine((canvass, ctx) => {
    // Read defensively: the rule also runs when other members failed their own checks.
    const { success, status_code: status } = canvass;
    if (typeof success !== 'boolean' || (status !== null && typeof status !== 'string')) return;
    if (!status === success) return;
    ctx.addIssue({
      code: 'custom',
      message: success
        ? 'a successful canvass has no status_code; leave it out or empty'
        : 'an unsuccessful canvass needs a status_code saying why',
      path: ['status_code'],
    });
  }, EVEN_WITH_INVALID_MEMBERS),
);

/**
 * Members of a canvass the server owns: ignored on create and update.
 *
 * @example
 * ```ts
 * CANVASS_READ_ONLY_FIELDS.includes('created_date'); // true
 * ```
 */
export const CANVASS_READ_ONLY_FIELDS = canvassSchemas.readOnly;

/**
 * A canvass read from a server. Derived from {@link CanvassSchema}.
 *
 * @example
 * ```ts
 * const reached: Canvass['success'] = canvass.data.success;
 * ```
 */
export type Canvass = z.output<typeof CanvassSchema>;

/**
 * What a client sends to create or update a canvass. Derived from
 * {@link CanvassWriteSchema}.
 *
 * @example
 * ```ts
 * const input: CanvassInput = { contact_type: 'door', input_type: 'mobile', success: true };
 * ```
 */
export type CanvassInput = z.input<typeof CanvassWriteSchema>;

/**
 * A canvass read from a server, with a method per link relation of a canvass.
 *
 * @example
 * ```ts
 * const canvass = await answer.canvass();
 * const target = await canvass?.target();
 * if (canvass) for await (const a of canvass.answers()) console.log(a.data.responses);
 * ```
 */
export class CanvassResource extends Resource<Canvass, CanvassInput> {
  /**
   * The person canvassed (`std:target`).
   *
   * @example
   * ```ts
   * const voter = await canvass.target();
   * ```
   */
  target(options?: CallOptions): Promise<PersonResource> {
    return this.linkedResource(personKind, 'std:target', options);
  }

  /**
   * The person who made the contact (`std:canvasser`), when the server knows.
   *
   * @example
   * ```ts
   * const volunteer = await canvass.canvasser();
   * ```
   */
  canvasser(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:canvasser', options);
  }

  /**
   * The answers given during the canvass (`std:answers`).
   *
   * @example
   * ```ts
   * const answers = await canvass.answers().toArray();
   * ```
   */
  answers(): Collection<Answer, AnswerInput, AnswerResource> {
    return this.linkedCollection(answerKind, 'std:answers');
  }

  /**
   * The tags applied during the canvass (`std:taggings`).
   *
   * @example
   * ```ts
   * for await (const tagging of canvass.taggings()) console.log((await tagging.tag()).data.name);
   * ```
   */
  taggings(): Collection<Tagging, TaggingInput, TaggingResource> {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }
}

/**
 * The canvass kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const canvasses = new Collection(context, locate, canvassKind);
 * ```
 */
export const canvassKind: ResourceKind<Canvass, CanvassInput, CanvassResource> = {
  singular: 'canvass',
  plural: 'canvasses',
  schema: CanvassSchema,
  writeSchema: CanvassWriteSchema,
  wrap: (context, document) => new CanvassResource(context, document, canvassKind),
};
