/**
 * Totals of records (a petition's signature count): what other records contributed,
 * with every total the kind declares present.
 */
import type { Tenant } from '../../storage/storage.js';
import type { ResourceKind } from '../kinds.js';
import type { RecordContext } from './context.js';

/**
 * The totals of records of a kind, for rendering: every total the kind declares,
 * 0 when nothing contributed yet.
 */
export async function totalsOfRecords(
  context: RecordContext,
  tenant: Pick<Tenant, 'id'>,
  kind: ResourceKind,
  ids: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (!kind.totals?.length && !kind.renderTotals) return out;
  const stored = await context.storage.records.totalsOf(tenant.id, kind.singular, ids);
  for (const id of ids) {
    const totals: Record<string, number> = {};
    for (const name of kind.totals ?? []) totals[name] = 0;
    out.set(id, { ...totals, ...stored.get(id) });
  }
  return out;
}

/** The stored totals of one record: only those something contributed to. */
export async function totalsOfRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  id: string,
): Promise<Record<string, number>> {
  return (await context.storage.records.totalsOf(tenant.id, kind.singular, [id])).get(id) ?? {};
}
