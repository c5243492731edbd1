/**
 * The metadata resources: `GET /api/v1/metadata` (the root linking the lists) and the
 * three canvass lists below it. Read-only; the vocabulary is static (see
 * domain/metadata.ts), only the hrefs, the namespace and the filter vary per request.
 */
import type { Context, Hono } from 'hono';
import { apiError, ErrorCode } from '../../domain/errors.js';
import {
  METADATA_LISTS,
  type MetadataListName,
  metadataListFields,
} from '../../domain/metadata.js';
import type { AppConfig, AppEnv } from '../env.js';
import { API_PREFIX, type Link, withQuery } from '../links.js';
import { methodNotAllowed } from '../middleware.js';
import { hal } from '../respond.js';

/** Path of the metadata root below the API base. */
export const METADATA_PATH = 'metadata';

/**
 * The `contacttype` filter, or undefined when absent. Given more than once it is a
 * 400: silently using the first value would answer a question the client did not ask.
 */
function contactTypeOf(c: Context<AppEnv>): string | undefined {
  const values = c.req.queries('contacttype');
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) {
    throw apiError(400, ErrorCode.INVALID_PARAMETER, 'give query parameter contacttype once', {
      properties: ['contacttype'],
    });
  }
  return values[0];
}

/**
 * Registers the metadata root and its lists. Must come before the generic record
 * routes, whose `/:collection` and `/:collection/:id` would otherwise take these paths.
 *
 * @example
 * ```ts
 * registerMetadata(app, config);
 * registerRecordRoutes(app, config);
 * ```
 */
export function registerMetadata(app: Hono<AppEnv>, config: AppConfig): void {
  const rootPath = `${API_PREFIX}/${METADATA_PATH}`;

  app.get(rootPath, (c) => {
    const urls = c.get('urls');
    const links: Record<string, Link | Link[]> = {
      self: { href: urls.api(METADATA_PATH), title: 'Metadata' },
    };
    for (const list of METADATA_LISTS) {
      links[`std:${list.name}`] = {
        href: urls.api(`${METADATA_PATH}/${list.name}`),
        title: list.title,
      };
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
      const contactType = name === 'canvass_response_codes' ? contactTypeOf(c) : undefined;
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
}
