/**
 * Embed codes: `GET <action URL>/embed` for the kinds a preset gives embeds (Action
 * Network's petitions, events, event campaigns, forms, fundraising pages and advocacy
 * campaigns), answering the preset's embed document for the record. Read-only; a
 * record of another tenant is 404 here as everywhere.
 */
import type { Hono } from 'hono';
import { EMBED_PATH } from '../../presets/embed-links.js';
import type { AppConfig, AppEnv } from '../env.js';
import { methodNotAllowed } from '../middleware.js';
import { hal } from '../respond.js';

/**
 * Registers the embed routes of the preset's kinds; none when the preset has no embeds.
 * Must come before the generic record routes, whose sub-collection route would
 * otherwise take `<action URL>/embed` for a sub-collection.
 */
export function registerEmbeds(app: Hono<AppEnv>, config: AppConfig): void {
  const embeds = config.preset.embeds;
  if (!embeds) return;
  for (const plural of embeds.kinds) {
    const kind = config.registry.byPlural(plural);
    if (!kind) continue;
    const path = `${config.apiPrefix}/${plural}/:id/${EMBED_PATH}`;
    app.get(path, async (c) => {
      const record = await config.records.get(c.get('auth').tenant, kind, c.req.param('id') ?? '');
      const urls = c.get('urls');
      return hal({
        ...embeds.document(kind.singular, record, urls.root),
        _links: {
          self: { href: urls.subCollection(plural, record.id, EMBED_PATH) },
          curies: urls.curies(),
        },
      });
    });
    app.all(path, methodNotAllowed(['GET']));
  }
}
