/**
 * The checks made over the whole run rather than by one request: the content types of
 * every JSON answer, and what the 429s met said. A 429 without `Retry-After` is a warn:
 * the specification leaves rate limits "not shown", so the header is HTTP's advice.
 */
import { type CheckContext, SPEC } from '../context.js';
import { missingStatus } from '../requirements.js';
import { contentTypeVerdict } from './content-type.js';

/** Adds the content-type and rate-limit summaries. */
export function summarise(context: CheckContext): void {
  const json = context.answers.filter((answer) => answer.json && answer.status < 300);
  const bad = json.filter((answer) => contentTypeVerdict(answer) === 'fail');
  const plain = json.filter((answer) => contentTypeVerdict(answer) === 'warn');
  context.add(
    'content types',
    'content-types.json-answers',
    bad.length > 0 ? 'fail' : plain.length > 0 ? 'warn' : json.length > 0 ? 'pass' : 'skip',
    bad.length > 0
      ? `${bad.length} of ${json.length} JSON answers say ${[...new Set(bad.map((answer) => answer.contentType || '(none)'))].join(', ')}, e.g. ${bad[0]?.url}`
      : plain.length > 0
        ? `${plain.length} of ${json.length} JSON answers are application/json, not application/hal+json`
        : `${json.length} JSON answers, all application/hal+json`,
    { spec: 'HAL draft: media type application/hal+json' },
  );
  const met = context.prober.rateLimited;
  const limit = [...context.prober.limitHeaders]
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  if (met.length === 0) {
    context.add(
      'rate limiting',
      'rate-limit.retry-after',
      'skip',
      `no 429 met in ${context.prober.sent} requests${limit ? ` (${limit})` : ''}`,
      { spec: SPEC.notes },
    );
    return;
  }
  const without = met.filter((meeting) => meeting.retryAfter === null);
  context.add(
    'rate limiting',
    'rate-limit.retry-after',
    without.length > 0 ? missingStatus('rate-limit.retry-after') : 'pass',
    without.length > 0
      ? `${without.length} of ${met.length} 429 answers carry no Retry-After: a client cannot know how long to wait (${without[0]?.url})`
      : `${met.length} 429 answers, each with Retry-After${limit ? ` (${limit})` : ''}`,
    { spec: 'RFC 6585 (429) and RFC 9110 (Retry-After)' },
  );
}
