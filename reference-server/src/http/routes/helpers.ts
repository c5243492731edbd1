/**
 * The record helpers: `POST <record URL>/<helper path>` for every record helper a kind
 * declares (record signature, outreach, attendance, donation, canvass, submission), and
 * the pieces the person signup route shares with them (the call's context, the answer,
 * background processing: `?background_request=true` answers `{}` once the call is
 * checked and does the work right after, where the preset takes the helper in the
 * background; see `../background.ts`).
 */
import type { Context, Hono } from 'hono';
import { apiError, ErrorCode, nonAtomicErrorBody } from '../../domain/errors.js';
import type { HelperContext } from '../../domain/helpers/context.js';
import {
  type HelperOutcome,
  helperAnswer,
  isComplete,
  outcomeStatuses,
} from '../../domain/helpers/outcome.js';
import {
  applyRecordHelperCall,
  checkRecordHelperCall,
  RECORD_HELPERS,
} from '../../domain/helpers/record-helpers.js';
import type { RecordHelper, ResourceKind } from '../../domain/kinds.js';
import { recordOfHref } from '../../domain/record-paths.js';
import { referencesOf } from '../../domain/records/index.js';
import type { JsonObject, StoredRecord, Tenant } from '../../storage/storage.js';
import { acceptInBackground, wantsBackground } from '../background.js';
import { type Control, readJsonObject, takeControl } from '../body.js';
import type { AppConfig, AppEnv } from '../env.js';
import { methodNotAllowed } from '../middleware.js';
import { presentBody } from '../relations.js';
import { minimalRecord, renderRecord } from '../render.js';
import { hal } from '../respond.js';

/**
 * The context of a helper call made through HTTP: hrefs are read and built as the routes
 * read and build them (absolute, from the request's origin or the public URL).
 */
export function helperContext(
  c: Context<AppEnv>,
  config: AppConfig,
  tenant: Tenant,
  anonymous: boolean,
): HelperContext {
  const urls = c.get('urls');
  return {
    records: config.records,
    tenant,
    anonymous,
    now: new Date(),
    resolveHref: (href) => recordOfHref(href, config.apiPrefix),
    hrefOf: (plural, id) => urls.record(plural, id),
    vocabulary: config.preset.vocabulary,
    signupStatuses: config.preset.signupStatuses,
    open: config.keylessOpen,
  };
}

/**
 * The response to a helper call (see `domain/helpers/outcome.ts` for the rules).
 */
export async function helperResponse(
  c: Context<AppEnv>,
  config: AppConfig,
  context: HelperContext,
  outcome: HelperOutcome,
  control: Control,
): Promise<Response> {
  const urls = c.get('urls');
  // The totals of the records the answer may show, read before it is rendered.
  const totals = new Map<StoredRecord, Record<string, number> | undefined>();
  if (control.returnResponse) {
    for (const shown of [outcome.main, outcome.person]) {
      if (!shown) continue;
      const read = await config.records.totals(context.tenant, shown.kind, [shown.record.id]);
      totals.set(shown.record, read.get(shown.record.id));
    }
  }
  const present = (kind: ResourceKind, record: StoredRecord) =>
    control.returnResponse
      ? renderRecord({
          urls,
          registry: config.registry,
          kind,
          record,
          totals: totals.get(record),
          withCuries: true,
        })
      : minimalRecord(urls, kind, record);
  const answer = helperAnswer(outcome, {
    anonymous: context.anonymous,
    returnResponse: control.returnResponse,
    present,
  });
  const headers: Record<string, string> = answer.location
    ? {
        Location: urls.recordAt(
          outcome.main.kind.plural,
          answer.location.id,
          referencesOf(answer.location.doc),
        ),
      }
    : {};
  // The domain names relations `std:`; the answer names them under the server's prefix.
  return hal(presentBody(answer.body, urls.curiePrefix), answer.status, headers);
}

/**
 * What a helper call processed in the background failed at, short of an exception: the
 * non-atomic `std:error` it would have answered when some action function failed.
 */
export function incompleteError(outcome: HelperOutcome): JsonObject | undefined {
  return isComplete(outcome) ? undefined : nonAtomicErrorBody(outcomeStatuses(outcome));
}

/**
 * The tenant a call on the record `id` of `kind` works in: the key's, or for an
 * anonymous call the record's own (404 when no tenant has it). Anonymous calls reach
 * only helpers open to them (the authentication middleware lets no other through).
 */
async function tenantOf(
  c: Context<AppEnv>,
  config: AppConfig,
  kind: ResourceKind,
  helper: RecordHelper,
  id: string,
): Promise<{ tenant: Tenant; anonymous: boolean }> {
  if (c.get('anonymous') !== true) return { tenant: c.get('auth').tenant, anonymous: false };
  if (!helper.anonymous) {
    throw apiError(401, ErrorCode.UNAUTHORIZED, `${helper.rel} needs an API key`);
  }
  const tenant = await config.storage.records.tenantOf(kind.singular, id);
  if (!tenant) throw apiError(404, ErrorCode.NOT_FOUND, `no ${kind.singular} with id ${id}`);
  return { tenant, anonymous: true };
}

/**
 * Answers a call of the record helper `helper` on the record `id` of `kind`: its tenant
 * (the key's, or for a call without a key the record's), background processing, the
 * check and the work. `body` is the request's body when the route has read it already
 * (a POST to a sub-collection where the helper lives, see `records.ts`); else it is
 * read here, after the tenant and the query are checked.
 */
export async function answerRecordHelper(
  c: Context<AppEnv>,
  config: AppConfig,
  kind: ResourceKind,
  helper: RecordHelper,
  id: string,
  body?: JsonObject,
): Promise<Response> {
  const definition = RECORD_HELPERS[helper.rel];
  if (!definition) throw apiError(404, ErrorCode.NOT_FOUND, `no helper ${helper.rel}`);
  const { tenant, anonymous } = await tenantOf(c, config, kind, helper, id);
  // Listed by the main record's kind: the record signature helper under `signatures`.
  const main = config.registry.bySingular(definition.main)?.plural ?? definition.main;
  const background = wantsBackground(c, config, main, 'helper');
  const { control, rest } = takeControl(body ?? (await readJsonObject(c)));
  const context = helperContext(c, config, tenant, anonymous);
  const call = await checkRecordHelperCall(context, definition, kind, id, rest);
  if (background) {
    return acceptInBackground(c, config, async () => {
      // Read again: the record may have been deleted since the call was checked.
      const parent = await config.records.get(tenant, kind, id);
      return incompleteError(await applyRecordHelperCall(context, { ...call, parent }));
    });
  }
  // One unit: the main record's transaction and each action function's are nested in
  // it (a failing function still rolls back alone), and the call's writes reach the
  // database together, in one commit.
  const outcome = await config.storage.unit(() => applyRecordHelperCall(context, call));
  return helperResponse(c, config, context, outcome, control);
}

/**
 * Registers the record helper routes (before the generic record routes, whose
 * sub-collection route would otherwise take the helper path). Message helpers have
 * their own routes (`messages.ts`); a helper without a definition is not served; a
 * helper a preset puts at a sub-collection (`petitions/{id}/signatures`) is answered by
 * that sub-collection's POST route (`records.ts`), which also creates records.
 */
export function registerHelperRoutes(app: Hono<AppEnv>, config: AppConfig): void {
  for (const kind of config.registry.all()) {
    for (const helper of kind.helpers ?? []) {
      if (!RECORD_HELPERS[helper.rel]) continue;
      if (kind.subCollections.some((sub) => sub.plural === helper.path)) continue;
      const path = `${config.apiPrefix}/${kind.plural}/:id/${helper.path}`;
      app.post(path, (c) => answerRecordHelper(c, config, kind, helper, c.req.param('id') ?? ''));
      app.all(path, methodNotAllowed(['POST']));
    }
  }
}
