/**
 * Creates the demo seed's records through the domain layer, as a client's POST would
 * be, and counts them by kind.
 */
import type { KindRegistry } from '../domain/kinds.js';
import type { LinkInput, RecordService } from '../domain/records/index.js';
import type { JsonObject, StoredRecord, Tenant } from '../storage/storage.js';

/**
 * Validates fields with the kind's write schema and creates the record through
 * {@link RecordService}, so every rule, link and total applies; counts what it creates.
 */
export class Creator {
  /** Records created, by kind (singular name); the `kinds` given start at 0. */
  readonly counts: Record<string, number>;

  constructor(
    private readonly records: RecordService,
    private readonly registry: KindRegistry,
    private readonly tenant: Tenant,
    private readonly now: Date,
    kinds: readonly string[],
  ) {
    this.counts = Object.fromEntries(kinds.map((kind) => [kind, 0]));
  }

  /**
   * Validates `fields` with the kind's write schema and creates the record with links
   * to `links` (relations whose record is undefined are left out).
   */
  async create(
    singular: string,
    fields: JsonObject,
    links: Record<string, StoredRecord | undefined> = {},
  ): Promise<StoredRecord> {
    const kind = this.registry.bySingular(singular);
    if (!kind) throw new Error(`the registry has no kind ${singular}`);
    const input: Record<string, { plural: string; id: string }> = {};
    for (const [rel, target] of Object.entries(links)) {
      if (!target) continue;
      const targetKind = this.registry.bySingular(target.kind);
      if (!targetKind) throw new Error(`the registry has no kind ${target.kind}`);
      input[rel] = { plural: targetKind.plural, id: target.id };
    }
    const record = await this.records.create(this.tenant, kind, kind.parse(fields), {
      links: input as LinkInput,
      now: this.now,
      // Demo data, not acts: a subscriber is not sent the seeding as webhook events.
      event: false,
    });
    this.counts[singular] = (this.counts[singular] ?? 0) + 1;
    return record;
  }
}
