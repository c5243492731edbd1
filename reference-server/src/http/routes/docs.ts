/**
 * Human-readable documentation pages: the targets of the curie (`std` unless configured)
 * (`/docs/v1/{rel}`) and of the entry point's `docs` link. No API key needed.
 */
import type { Hono } from 'hono';
import type { KindRegistry } from '../../domain/kinds.js';
import type { AppConfig, AppEnv } from '../env.js';
import { DOCS_PREFIX } from '../links.js';
import { CANONICAL_PREFIX } from '../relations.js';
import { CACHE_CONTROL } from '../respond.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * Descriptions of every link relation the server emits, from the kind registry.
 */
export function relationDocs(registry: KindRegistry): Map<string, string> {
  const docs = new Map<string, string>();
  for (const kind of registry.all()) {
    docs.set(
      kind.plural,
      `${kind.title}. GET returns a paged collection document (page, per_page, total_pages, total_records, next/previous links); POST creates a ${kind.singular}.`,
    );
    docs.set(
      kind.singular,
      `One ${kind.singular}. GET reads it, PUT updates the fields sent (null clears a field, arrays are replaced whole), DELETE removes it.`,
    );
    for (const sub of kind.subCollections) {
      if (!docs.has(sub.plural)) docs.set(sub.plural, `${sub.title}: a paged collection document.`);
    }
  }
  for (const helper of registry.helperLinks()) {
    docs.set(
      helper.rel,
      `${helper.title}. POST a body with a person and optional action functions.`,
    );
  }
  docs.set(
    'error',
    'An error: request_type, response_code and resource_status with error_descriptions.',
  );
  docs.set('control', 'Request control object: return_response (boolean, default true).');
  docs.set(
    'webhooks',
    'Webhook subscriptions of the tenant (an extension of this server). GET lists them; POST { url, secret?, triggers? } creates one and answers its signing secret, shown only then; GET or DELETE one at its self link.',
  );
  docs.set(
    'deliveries',
    "A webhook subscription's delivery log, newest attempt first: attempt, attempted_date, outcome, status, error, next_attempt_date, duration_ms, event_count.",
  );
  return docs;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/**
 * Registers `/docs/v1/` and `/docs/v1/:rel`.
 */
export function registerDocs(app: Hono<AppEnv>, config: AppConfig): void {
  const prefix = escapeHtml(config.curiePrefix);
  // `/docs/v1/people` as the curie expands, or with either prefix written out.
  const bare = (rel: string) => {
    for (const written of [config.curiePrefix, CANONICAL_PREFIX]) {
      if (rel.startsWith(`${written}:`)) return rel.slice(written.length + 1);
    }
    return rel;
  };
  const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': CACHE_CONTROL };
  app.get(DOCS_PREFIX, () => {
    const docs = relationDocs(config.registry);
    const items = [...docs.keys()]
      .map(
        (rel) =>
          `<li><a href="${DOCS_PREFIX}/${escapeHtml(rel)}">${prefix}:${escapeHtml(rel)}</a></li>`,
      )
      .join('');
    return new Response(
      page(
        `${config.productName}: documentation`,
        `<p>Start at the API entry point <code>/api/v1/</code> with your key in the <code>${escapeHtml(config.apiKeyHeader)}</code> header and follow the links.</p><h2>Link relations</h2><ul>${items}</ul>`,
      ),
      { headers },
    );
  });
  app.get(`${DOCS_PREFIX}/:rel`, (c) => {
    const rel = bare(c.req.param('rel'));
    const text = relationDocs(config.registry).get(rel);
    if (!text) {
      return new Response(page('Not found', `<p>No relation ${prefix}:${escapeHtml(rel)}.</p>`), {
        status: 404,
        headers,
      });
    }
    return new Response(
      page(
        `${config.curiePrefix}:${rel}`,
        `<p>${escapeHtml(text)}</p><p><a href="${DOCS_PREFIX}/">All relations</a></p>`,
      ),
      { headers },
    );
  });
}
