/**
 * The metadata resources: `GET /api/v1/metadata` (the root linking the lists) and the
 * three canvass lists below it, plus the documents a preset adds beside them (Action
 * Network's `custom_fields`). Read-only; the canvass vocabulary is static (see
 * domain/metadata.ts), only the hrefs, the namespace and the filter vary per request.
 */
import type { Hono } from 'hono';
import { writeDateTimes } from '../../domain/date-times.js';
import {
  METADATA_LISTS,
  type MetadataListName,
  metadataListFields,
} from '../../domain/metadata.js';
import type { AppConfig, AppEnv } from '../env.js';
import { type Link, withQuery } from '../links.js';
import { methodNotAllowed } from '../middleware.js';
import { singleQuery } from '../query.js';
import { hal } from '../respond.js';

/** Path of the metadata root below the API base. */
export const METADATA_PATH = 'metadata';

/**
 * Registers the metadata root and its lists. Must come before the generic record
 * routes, whose `/:collection` and `/:collection/:id` would otherwise take these paths.
 */
export function registerMetadata(app: Hono<AppEnv>, config: AppConfig): void {
  const rootPath = `${config.apiPrefix}/${METADATA_PATH}`;

  app.get(rootPath, (c) => {
    const urls = c.get('urls');
    const links: Record<string, Link | Link[]> = {
      self: { href: urls.api(METADATA_PATH), title: 'Metadata' },
    };
    for (const list of METADATA_LISTS) {
      links[urls.rel(list.name)] = {
        href: urls.api(`${METADATA_PATH}/${list.name}`),
        title: list.title,
      };
    }
    // The preset's documents side by side with the canvass lists (Action Network's
    // custom fields), under the relation the preset gives each.
    for (const list of config.preset.metadata) {
      links[list.rel] = { href: urls.api(`${METADATA_PATH}/${list.name}`), title: list.title };
    }
    links.curies = urls.curies();
    return hal({ name: `${config.productName} metadata`, _links: links });
  });
  app.all(rootPath, methodNotAllowed(['GET']));

  for (const list of METADATA_LISTS) {
    const name: MetadataListName = list.name;
    const path = `${rootPath}/${name}`;
    app.get(path, (c) => {
      const urls = c.get('urls');
      // Only the response codes have a filter; elsewhere the parameter is ignored, as
      // unknown query parameters are on every other route.
      const contactType =
        name === 'canvass_response_codes' ? singleQuery(c, 'contacttype') : undefined;
      const fields = metadataListFields(
        name,
        { namespace: c.get('auth').tenant.namespace, originSystem: config.productName },
        contactType,
      );
      const href = urls.api(`${METADATA_PATH}/${name}`);
      return hal({
        ...fields,
        _links: {
          // The self link of a filtered list names the filtered list, not all codes.
          self: { href: withQuery(href, { contacttype: contactType }) },
          curies: urls.curies(),
        },
      });
    });
    app.all(path, methodNotAllowed(['GET']));
  }

  for (const list of config.preset.metadata) {
    const path = `${rootPath}/${list.name}`;
    app.get(path, async (c) => {
      const urls = c.get('urls');
      const fields = await list.fields({
        tenant: c.get('auth').tenant,
        storage: config.storage,
        originSystem: config.productName,
      });
      // Its dates (a custom field's created_date, read off a person) as records write them.
      return hal({
        ...writeDateTimes(fields, config.preset.dateTimes),
        _links: {
          self: { href: urls.api(`${METADATA_PATH}/${list.name}`) },
          curies: urls.curies(),
        },
      });
    });
    app.all(path, methodNotAllowed(['GET']));
  }
}
