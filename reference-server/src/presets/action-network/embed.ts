/**
 * Action Network's embeds on the reference server (`docs/v2/embed`): the HTML snippets
 * that put an action's form on another website, at `<action URL>/embed` for petitions,
 * events, event campaigns, forms, fundraising pages and advocacy campaigns, linked from
 * each as `action_network:embed`. The markup is this server's own: a script and the
 * element it fills, named after the action; the reference server serves no widget
 * script, so the snippets are for reading and storing, not for rendering.
 */
import type { StoredRecord } from '../../storage/storage.js';
import type { PresetEmbeds } from '../serving-preset.js';

/** Text safe inside an HTML attribute quoted with `'` and inside an element. */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The action's public title: `title`, else its administrative `name`. */
function titleOf(record: StoredRecord): string {
  const { title, name } = record.doc;
  return typeof title === 'string' ? title : typeof name === 'string' ? name : '';
}

type Layout = 'standard' | 'full';
type Styles = 'default' | 'layout_only' | 'no';

/** One snippet: the style sheet (unless unstyled), the script, the element it fills. */
function snippet(
  kind: string,
  record: StoredRecord,
  root: string,
  layout: Layout,
  styles: Styles,
): string {
  const id = encodeURIComponent(record.id);
  const sheet =
    styles === 'no'
      ? ''
      : `<link href='${root}/widgets/v1/embed${styles === 'layout_only' ? '-layout-only' : ''}.css' rel='stylesheet' type='text/css' />`;
  const script = `<script src='${root}/widgets/v1/${kind}/${id}?format=js&amp;source=widget${layout === 'full' ? '&amp;style=full' : ''}'></script>`;
  const title = escapeHtml(titleOf(record));
  const area = `<div id='adis-${kind}-area-${id}' data-title='${title}' style='width: 100%'><noscript>${title}</noscript></div>`;
  return `${sheet}${script}${area}`;
}

/**
 * The six snippets of an action: two layouts (`standard`, the form alone; `full`, the
 * action's text beside it), each with the default styles, layout styles only, or none.
 */
export function embedCodes(
  kind: string,
  record: StoredRecord,
  root: string,
): Record<string, string> {
  const codes: Record<string, string> = {};
  for (const layout of ['standard', 'full'] as const) {
    for (const styles of ['default', 'layout_only', 'no'] as const) {
      codes[`embed_${layout}_${styles}_styles`] = snippet(kind, record, root, layout, styles);
    }
  }
  return codes;
}

/**
 * The embeds of the Action Network preset: the actions that have them, the title of
 * their link, their document.
 */
export const ACTION_NETWORK_EMBEDS: PresetEmbeds = {
  kinds: [
    'petitions',
    'events',
    'event_campaigns',
    'forms',
    'fundraising_pages',
    'advocacy_campaigns',
  ],
  title: 'The embed codes of this action',
  document: embedCodes,
};
