/**
 * Webhook subscriptions through the API: an extension collection, `<prefix>:webhooks`
 * in the entry point, at `<apiPrefix>/webhooks` (the specification leaves outbound
 * notifications out). A tenant's keys see its subscriptions only: write keys create and
 * delete them, read keys list them. Each has its delivery log at
 * `<apiPrefix>/webhooks/{id}/deliveries` (`<prefix>:deliveries`), newest attempt first.
 *
 * The secret a subscription signs with is shown once, in the answer to its creation;
 * afterwards its last four characters only. Subscriptions from the operator's
 * `--webhooks` file are listed too, and cannot be deleted here. A URL whose host is
 * loopback, private or link-local is refused (server-side request forgery; see
 * `webhooks/address-check.ts`) unless the server allows private addresses. A tenant
 * makes at most `webhookSubscriptionLimit` of them (`domain/webhook-subscription-limit.ts`).
 */
import { randomUUID } from 'node:crypto';
import { isVendorMember } from 'adis-sdk/schema';
import type { Context, Hono } from 'hono';
import * as z from 'zod';
import { type DateTimeStyle, writeInstant } from '../../domain/date-times.js';
import { ApiError, apiError, ErrorCode } from '../../domain/errors.js';
import { parsePageRequest } from '../../domain/paging.js';
import { issueToDescription } from '../../domain/validation.js';
import { addSubscriptionWithinLimit } from '../../domain/webhook-subscription-limit.js';
import {
  maskedSecret,
  maskedUrl,
  newWebhookSecret,
  WebhookSecretSchema,
  WebhookTriggersSchema,
  WebhookUrlSchema,
} from '../../domain/webhook-subscriptions.js';
import type { JsonObject, Tenant } from '../../storage/storage.js';
import type { DeliveryAttempt, WebhookSubscription } from '../../storage/webhook-store.js';
import { refusedAddress } from '../../webhooks/address-check.js';
import { readJsonObject, takeControl } from '../body.js';
import type { AppConfig, AppEnv } from '../env.js';
import { type Link, type Urls, withQuery } from '../links.js';
import { methodNotAllowed } from '../middleware.js';
import { singleQuery } from '../query.js';
import { hal } from '../respond.js';

/** The collection's path below the API prefix, and its relation without the prefix. */
export const WEBHOOKS_PATH = 'webhooks';
/** The relation of a subscription's delivery log, and its path below the subscription. */
const DELIVERIES = 'deliveries';
/** The resource name of the errors about a subscription. */
const RESOURCE = 'std:webhook';
/** Attempts read for a log page: the store keeps a few hundred per subscription. */
const ATTEMPTS_READ = 10_000;

const NewSubscriptionSchema = z.strictObject({
  url: WebhookUrlSchema,
  secret: WebhookSecretSchema.optional(),
  triggers: WebhookTriggersSchema.optional(),
});

/** Milliseconds since the epoch as the API writes dates (the preset's style), or nothing. */
function dateOrNothing(
  name: string,
  ms: number | undefined,
  style: DateTimeStyle | undefined,
): JsonObject {
  return ms === undefined ? {} : { [name]: writeInstant(ms, style) };
}

/**
 * A subscription as the API shows it: the secret (and credentials in its URL) whole only
 * in the answer to its creation.
 */
function renderSubscription(
  urls: Urls,
  tenant: Tenant,
  subscription: WebhookSubscription,
  options: { secretShown: boolean; withCuries: boolean; dateTimes: DateTimeStyle | undefined },
): JsonObject {
  const self = urls.api(`${WEBHOOKS_PATH}/${encodeURIComponent(subscription.id)}`);
  const links: Record<string, Link | Link[]> = {
    self: { href: self },
    [urls.rel(DELIVERIES)]: { href: `${self}/${DELIVERIES}`, title: 'Delivery attempts' },
  };
  if (options.withCuries) links.curies = urls.curies();
  return {
    identifiers: [`${tenant.namespace}:${subscription.id}`],
    url: options.secretShown ? subscription.url : maskedUrl(subscription.url),
    triggers: [...subscription.triggers],
    secret: options.secretShown ? subscription.secret : maskedSecret(subscription.secret),
    source: subscription.source,
    active: subscription.active,
    ...(subscription.disabledReason === undefined
      ? {}
      : { disabled_reason: subscription.disabledReason }),
    ...dateOrNothing('created_date', subscription.createdMs, options.dateTimes),
    ...dateOrNothing('next_attempt_date', subscription.nextAttemptMs, options.dateTimes),
    ...dateOrNothing('failing_since', subscription.failingSinceMs, options.dateTimes),
    _links: links,
  };
}

/** One logged attempt as the delivery log shows it. */
function renderAttempt(attempt: DeliveryAttempt, style: DateTimeStyle | undefined): JsonObject {
  return {
    attempt: attempt.attempt,
    attempted_date: writeInstant(attempt.atMs, style),
    outcome: attempt.outcome,
    ...(attempt.status === undefined ? {} : { status: attempt.status }),
    ...(attempt.error === undefined ? {} : { error: attempt.error }),
    ...dateOrNothing('next_attempt_date', attempt.nextAttemptMs, style),
    duration_ms: attempt.durationMs,
    event_count: attempt.eventCount,
  };
}

/**
 * A collection document of items already rendered, paged by `page` and `per_page`
 * (the lists are short: a tenant's subscriptions, a log of a few hundred attempts). With
 * `hrefs`, `_links` lists the items' self links as the record collections do.
 */
function collectionPage(
  c: Context<AppEnv>,
  config: AppConfig,
  href: string,
  rel: string,
  items: readonly JsonObject[],
  hrefs: boolean,
): JsonObject {
  const urls = c.get('urls');
  const request = parsePageRequest(
    { page: singleQuery(c, 'page'), per_page: singleQuery(c, 'per_page') },
    config.maxPageSize,
  );
  const { page, perPage } = request;
  const shown = items.slice((page - 1) * perPage, page * perPage);
  const totalPages = Math.ceil(items.length / perPage);
  const links: Record<string, Link | Link[]> = {
    self: { href: withQuery(href, { page, per_page: perPage }) },
  };
  if (page < totalPages)
    links.next = { href: withQuery(href, { page: page + 1, per_page: perPage }) };
  if (page > 1) links.previous = { href: withQuery(href, { page: page - 1, per_page: perPage }) };
  links.curies = urls.curies();
  if (hrefs)
    links[rel] = shown.map((item) => ({ href: (item._links as { self: Link }).self.href }));
  return {
    total_pages: totalPages,
    per_page: perPage,
    page,
    total_records: items.length,
    _links: links,
    _embedded: { [rel]: shown },
  };
}

/** The body of a POST, checked: vendor members (`acme:note`) pass unread, other unknown ones are refused. */
function newSubscriptionOf(body: JsonObject): z.output<typeof NewSubscriptionSchema> {
  const { rest } = takeControl(body);
  const own = Object.fromEntries(Object.entries(rest).filter(([name]) => !isVendorMember(name)));
  const result = NewSubscriptionSchema.safeParse(own);
  if (result.success) return result.data;
  throw new ApiError(
    400,
    result.error.issues.map((issue) => issueToDescription(issue)),
    RESOURCE,
  );
}

/**
 * Registers the webhook subscription routes. Must come before the generic record
 * routes, whose `/:collection` would otherwise take `/webhooks`.
 */
export function registerWebhookRoutes(app: Hono<AppEnv>, config: AppConfig): void {
  const store = config.storage.webhooks;
  const dateTimes = config.preset.dateTimes;
  const collectionPath = `${config.apiPrefix}/${WEBHOOKS_PATH}`;
  const recordPath = `${collectionPath}/:id`;
  const deliveriesPath = `${recordPath}/${DELIVERIES}`;

  /** The caller's tenant's subscription named in the path; 404 for any other. */
  const subscriptionOf = async (c: Context<AppEnv>): Promise<WebhookSubscription> => {
    const id = c.req.param('id') ?? '';
    const subscription = await store.getSubscription(id, c.get('auth').tenant.id);
    if (!subscription) {
      throw apiError(404, ErrorCode.NOT_FOUND, `no webhook subscription ${id}`, {
        resource: RESOURCE,
      });
    }
    return subscription;
  };

  app.get(collectionPath, async (c) => {
    const urls = c.get('urls');
    const { tenant } = c.get('auth');
    const items = (await store.listSubscriptions(tenant.id)).map((subscription) =>
      renderSubscription(urls, tenant, subscription, {
        secretShown: false,
        withCuries: false,
        dateTimes,
      }),
    );
    return hal(
      collectionPage(c, config, urls.api(WEBHOOKS_PATH), urls.rel(WEBHOOKS_PATH), items, true),
    );
  });

  app.post(collectionPath, async (c) => {
    const input = newSubscriptionOf(await readJsonObject(c));
    const refused = await refusedAddress(input.url, config.webhooksAllowPrivate);
    if (refused !== undefined) {
      throw apiError(400, ErrorCode.INVALID_PROPERTY, `url: ${refused}`, {
        properties: ['url'],
        hint: 'webhooks go to public addresses only; the operator may allow private ones (--webhooks-allow-private)',
        resource: RESOURCE,
      });
    }
    const { tenant } = c.get('auth');
    // Counted and added in one transaction: after the address check, which may wait on
    // DNS and must not hold the tenant's lock meanwhile.
    const subscription = await addSubscriptionWithinLimit(
      config.storage,
      {
        id: randomUUID(),
        tenantId: tenant.id,
        url: input.url,
        secret: input.secret ?? newWebhookSecret(),
        triggers: input.triggers ?? ['*'],
        source: 'api',
        createdMs: Date.now(),
      },
      config.webhookSubscriptionLimit,
    );
    const urls = c.get('urls');
    const answer = renderSubscription(urls, tenant, subscription, {
      secretShown: true,
      withCuries: true,
      dateTimes,
    });
    return hal(answer, 201, { Location: (answer._links as { self: Link }).self.href });
  });
  app.all(collectionPath, methodNotAllowed(['GET', 'POST']));

  app.get(recordPath, async (c) =>
    hal(
      renderSubscription(c.get('urls'), c.get('auth').tenant, await subscriptionOf(c), {
        secretShown: false,
        withCuries: true,
        dateTimes,
      }),
    ),
  );
  app.delete(recordPath, async (c) => {
    const subscription = await subscriptionOf(c);
    if (subscription.source === 'file') {
      throw apiError(
        403,
        ErrorCode.FORBIDDEN,
        `webhook subscription ${subscription.id} comes from the operator's --webhooks file and cannot be deleted through the API`,
        { hint: 'ask the operator to remove it from the file', resource: RESOURCE },
      );
    }
    await store.deleteSubscription(subscription.tenantId, subscription.id);
    const notice = config.preset.deleteNotice?.replaceAll('{kind}', 'webhook subscription');
    return notice === undefined ? hal(undefined, 204) : hal({ notice }, 200);
  });
  app.all(recordPath, methodNotAllowed(['GET', 'DELETE']));

  app.get(deliveriesPath, async (c) => {
    const subscription = await subscriptionOf(c);
    const urls = c.get('urls');
    const items = (await store.listAttempts(subscription.id, ATTEMPTS_READ)).map((attempt) =>
      renderAttempt(attempt, dateTimes),
    );
    const href = `${urls.api(`${WEBHOOKS_PATH}/${encodeURIComponent(subscription.id)}`)}/${DELIVERIES}`;
    return hal(collectionPage(c, config, href, urls.rel(DELIVERIES), items, false));
  });
  app.all(deliveriesPath, methodNotAllowed(['GET']));
}
