import * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { describedRecordFields } from './content-fields.js';
import { commonFields, type Mode, optional, resourceSchemas } from './fields.js';
import { type PersonResource, personKind } from './person-resource.js';

/**
 * The query's fields. The spec shows none; a query is a saved selection of people (a
 * message can target one), so it has the descriptive fields of every named record and
 * `filter`, the filter expression that selects its people: the same expression a
 * client passes as `filter=` to the people collection
 * (`modified_date gt '2026-01-01T00:00:00Z'`). It is optional because queries built in
 * a vendor's own query editor have no such expression to show.
 */
function queryShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...describedRecordFields(),
    filter: optional(z.string()),
  };
}

const querySchemas = resourceSchemas(queryShape);

/**
 * A saved query as the SDK reads it from any server: unknown members kept.
 *
 * @example
 * ```ts
 * import { QuerySchema } from 'adis-sdk';
 * const query = QuerySchema.parse(json);
 * if (query.filter) for await (const p of client.people.filter(query.filter)) console.log(p.url);
 * ```
 */
export const QuerySchema = querySchemas.read;

/**
 * A query as a client sends it on create and update: no unknown members. Whether
 * `filter` is an expression the server can evaluate is checked by the server.
 *
 * @example
 * ```ts
 * import { QueryWriteSchema } from 'adis-sdk';
 * QueryWriteSchema.parse({ name: 'recent', filter: "modified_date gt '2026-01-01T00:00:00Z'" });
 * ```
 */
export const QueryWriteSchema = querySchemas.write;

/**
 * Members of a query the server owns: ignored on create and update.
 *
 * @example
 * ```ts
 * QUERY_READ_ONLY_FIELDS.includes('created_date'); // true
 * ```
 */
export const QUERY_READ_ONLY_FIELDS = querySchemas.readOnly;

/**
 * A query read from a server. Derived from {@link QuerySchema}.
 *
 * @example
 * ```ts
 * const expression: Query['filter'] = query.data.filter;
 * ```
 */
export type Query = z.output<typeof QuerySchema>;

/**
 * What a client sends to create or update a query. Derived from
 * {@link QueryWriteSchema}.
 *
 * @example
 * ```ts
 * const input: QueryInput = { name: 'donors', filter: "email_addresses/any(e: e/status eq 'subscribed')" };
 * ```
 */
export type QueryInput = z.input<typeof QueryWriteSchema>;

/**
 * A saved query read from a server, with a method per link relation of a query.
 *
 * @example
 * ```ts
 * for await (const query of client.queries) console.log(query.data.name, query.data.filter);
 * ```
 */
export class QueryResource extends Resource<Query, QueryInput> {
  /**
   * The person who created the query (`std:creator`), when the server records one.
   *
   * @example
   * ```ts
   * const builtBy = await query.creator();
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last changed the query (`std:modified_by`), when the server
   * records one.
   *
   * @example
   * ```ts
   * const changedBy = await query.modifiedBy();
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }
}

/**
 * The query kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const queries = new Collection(context, locate, queryKind);
 * ```
 */
export const queryKind: ResourceKind<Query, QueryInput, QueryResource> = {
  singular: 'query',
  plural: 'queries',
  schema: QuerySchema,
  writeSchema: QueryWriteSchema,
  wrap: (context, document) => new QueryResource(context, document, queryKind),
};
