import type { HalDocument } from '../hal/index.js';
import { Collection } from '../navigator/collection.js';
import type { NavigatorContext } from '../navigator/context.js';
import { type ResourceKind, type UntypedData, untypedKindOf } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { type Person, type PersonInput, PersonSchema, PersonWriteSchema } from './person.js';

/**
 * A person read from a server, with a method per link relation of a person.
 *
 * The related collections are untyped until their resources get schemas of their own;
 * each is a {@link Collection} that pages like any other.
 *
 * @example
 * ```ts
 * for await (const person of client.people) {
 *   console.log(person.data.given_name, person.primaryEmail);
 *   for await (const signature of person.signatures()) console.log(signature.url);
 * }
 * ```
 */
export class PersonResource extends Resource<Person, PersonInput> {
  /**
   * The primary email address, else the first one.
   *
   * @example
   * ```ts
   * person.primaryEmail; // 'ana@example.org'
   * ```
   */
  get primaryEmail(): string | undefined {
    const emails = this.data.email_addresses ?? [];
    const email = emails.find((e) => e?.primary) ?? emails[0];
    return email?.address ?? undefined;
  }

  /**
   * The person's signatures (`std:signatures`).
   *
   * @example
   * ```ts
   * const count = (await person.signatures().toArray()).length;
   * ```
   */
  signatures(): Collection<UntypedData, UntypedData, Resource<UntypedData>> {
    return this.#related('signature', 'signatures');
  }

  /**
   * The person's attendances (`std:attendances`).
   *
   * @example
   * ```ts
   * for await (const attendance of person.attendances()) console.log(attendance.url);
   * ```
   */
  attendances(): Collection<UntypedData, UntypedData, Resource<UntypedData>> {
    // The spec's list of a person's links spells it `std:attendance` once; both are read.
    return this.#related('attendance', 'attendances', 'std:attendance');
  }

  /**
   * The person's form submissions (`std:submissions`).
   *
   * @example
   * ```ts
   * for await (const submission of person.submissions()) console.log(submission.url);
   * ```
   */
  submissions(): Collection<UntypedData, UntypedData, Resource<UntypedData>> {
    return this.#related('submission', 'submissions');
  }

  /**
   * The person's donations (`std:donations`).
   *
   * @example
   * ```ts
   * for await (const donation of person.donations()) console.log(donation.data.amount);
   * ```
   */
  donations(): Collection<UntypedData, UntypedData, Resource<UntypedData>> {
    return this.#related('donation', 'donations');
  }

  /**
   * The person's outreaches (`std:outreaches`).
   *
   * @example
   * ```ts
   * for await (const outreach of person.outreaches()) console.log(outreach.url);
   * ```
   */
  outreaches(): Collection<UntypedData, UntypedData, Resource<UntypedData>> {
    return this.#related('outreach', 'outreaches');
  }

  /**
   * The person's taggings (`std:taggings`).
   *
   * @example
   * ```ts
   * for await (const tagging of person.taggings()) console.log(tagging.url);
   * ```
   */
  taggings(): Collection<UntypedData, UntypedData, Resource<UntypedData>> {
    return this.#related('tagging', 'taggings');
  }

  /**
   * The person's answers to questions (`std:answers`).
   *
   * @example
   * ```ts
   * for await (const answer of person.answers()) console.log(answer.url);
   * ```
   */
  answers(): Collection<UntypedData, UntypedData, Resource<UntypedData>> {
    return this.#related('answer', 'answers');
  }

  /**
   * The list items that put the person on lists (`std:items`).
   *
   * @example
   * ```ts
   * for await (const item of person.items()) console.log(item.url);
   * ```
   */
  items(): Collection<UntypedData, UntypedData, Resource<UntypedData>> {
    return this.#related('item', 'items');
  }

  #related(singular: string, plural: string, alternative?: string) {
    const rel = `std:${plural}`;
    return new Collection(
      this.context,
      async () =>
        (
          (alternative && !this.link(rel) ? this.link(alternative) : undefined) ??
          this.requireLink(rel)
        ).url(),
      untypedKindOf(singular, plural),
    );
  }
}

/**
 * The person kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const people = new Collection(context, locate, personKind);
 * ```
 */
export const personKind: ResourceKind<Person, PersonInput, PersonResource> = {
  singular: 'person',
  plural: 'people',
  schema: PersonSchema,
  writeSchema: PersonWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new PersonResource(context, document, personKind),
};
