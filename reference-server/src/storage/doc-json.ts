/**
 * Records whose document is kept as the JSON it was stored as (UTF-8 bytes, as SQLite
 * holds it), and parsed only when something reads it. Rendering a page of records then
 * need not decode and parse each document only to serialise and encode it again: the
 * renderer splices the stored bytes into the answer (see `storedDocJson`), and code that
 * reads `doc` gets the parsed object as before.
 */
import type { JsonObject, StoredRecord } from './storage.js';

/**
 * A record read from storage. `doc` is an own, enumerable accessor (so spreading or
 * copying the record copies the parsed document, like a plain record), parsed from the
 * stored JSON on first read. The JSON stays in a private field, which copies never
 * carry: a copy (`{ ...record, doc: other }`) cannot pass off stale JSON as its own.
 */
class LoadedRecord implements StoredRecord {
  declare seq: number;
  declare kind: string;
  declare id: string;
  declare doc: JsonObject;
  declare created_date: string;
  declare modified_date: string;
  /** The stored JSON, until `doc` is first read or replaced. */
  #json: Buffer | undefined;
  #doc: JsonObject | undefined;

  /**
   * One descriptor for every record: shared getter and setter functions keep the
   * records on one hidden class, where a getter per record would cost a closure each.
   */
  static readonly #docProperty: PropertyDescriptor = {
    get(this: LoadedRecord): JsonObject {
      if (this.#doc === undefined) {
        this.#doc = JSON.parse((this.#json as Buffer).toString('utf8')) as JsonObject;
        // Once handed out, the object may be changed in place: the JSON may no longer be it.
        this.#json = undefined;
      }
      return this.#doc;
    },
    set(this: LoadedRecord, value: JsonObject) {
      this.#doc = value;
      this.#json = undefined;
    },
    enumerable: true,
    configurable: true,
  };

  constructor(fields: Omit<StoredRecord, 'doc'>, json: Buffer) {
    this.#json = json;
    // In the order of a plain record's members.
    this.seq = fields.seq;
    this.kind = fields.kind;
    this.id = fields.id;
    Object.defineProperty(this, 'doc', LoadedRecord.#docProperty);
    this.created_date = fields.created_date;
    this.modified_date = fields.modified_date;
  }

  /** The JSON of a record whose document was never read or replaced. */
  static unreadJson(record: StoredRecord): Buffer | undefined {
    return #json in record ? record.#json : undefined;
  }
}

/**
 * A record whose `doc` is parsed from `docJson` (UTF-8 JSON of an object, as stored) on
 * first read.
 *
 * @example
 * ```ts
 * import { recordFromJson, storedDocJson } from './doc-json.js';
 *
 * const d = '2026-01-01T00:00:00.000Z';
 * const fields = { seq: 1, kind: 'person', id: 'p1', created_date: d, modified_date: d };
 * const record = recordFromJson(fields, Buffer.from('{"given_name":"Ana"}'));
 * storedDocJson(record)?.toString(); // '{"given_name":"Ana"}'
 * record.doc.given_name; // 'Ana' (and storedDocJson(record) is undefined from now on)
 * ```
 */
export function recordFromJson(fields: Omit<StoredRecord, 'doc'>, docJson: Buffer): StoredRecord {
  return new LoadedRecord(fields, docJson);
}

/**
 * The JSON (UTF-8 bytes) `record.doc` was stored as, when it is certainly still the
 * document: the record came from {@link recordFromJson} and its `doc` was never read or
 * replaced. Undefined otherwise (then use `record.doc`). Not to be modified.
 */
export function storedDocJson(record: StoredRecord): Buffer | undefined {
  return LoadedRecord.unreadJson(record);
}
