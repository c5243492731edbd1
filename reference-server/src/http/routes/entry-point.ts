/**
 * The API entry point: the spec's fields plus links built from the kind registry, so a
 * kind registered later appears here without changing this file.
 */
import type { Hono } from 'hono';
import type { AppConfig, AppEnv } from '../env.js';
import type { Link } from '../links.js';
import { methodNotAllowed } from '../middleware.js';
import { versionField } from '../relations.js';
import { hal } from '../respond.js';
import { WEBHOOKS_PATH } from './webhooks.js';

/**
 * Registers `GET /api/v1/`.
 */
export function registerEntryPoint(app: Hono<AppEnv>, config: AppConfig): void {
  app.get(config.apiPrefix, (c) => {
    const urls = c.get('urls');
    const { tenant } = c.get('auth');
    const links: Record<string, Link | Link[]> = {
      self: { href: urls.entryPoint(), title: `${config.productName} entry point` },
      docs: { href: urls.docs(), title: 'Documentation', name: 'Docs', index: 'index' },
      [urls.rel('metadata')]: { href: urls.api('metadata'), title: 'Metadata' },
      curies: urls.curies(),
    };
    for (const kind of config.registry.all()) {
      if (kind.inEntryPoint)
        links[urls.rel(kind.plural)] = { href: urls.collection(kind.plural), title: kind.title };
    }
    for (const helper of config.registry.helperLinks()) {
      links[urls.rel(helper.rel)] = { href: urls.api(helper.path), title: helper.title };
    }
    // An extension collection of this server: the tenant's webhook subscriptions.
    links[urls.rel(WEBHOOKS_PATH)] = {
      href: urls.api(WEBHOOKS_PATH),
      title: 'Webhook subscriptions',
    };
    return hal({
      motd: config.motd,
      [config.preset.maxPageSizeMember]: config.maxPageSize,
      vendor_name: config.vendorName,
      product_name: config.productName,
      [versionField(config.curiePrefix)]: config.specVersion,
      namespace: tenant.namespace,
      _links: links,
    });
  });
  app.all(config.apiPrefix, methodNotAllowed(['GET']));
}
