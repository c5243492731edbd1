/**
 * The content type of an answer with a JSON body: `application/hal+json` as the
 * specification's documents are HAL, `application/json` tolerated (a warn), anything
 * else a failure (a client that trusts the type will not read the body as JSON).
 */
import type { CheckContext } from '../context.js';
import type { ProbeResponse } from '../prober.js';
import type { CheckArea } from '../report.js';
import type { RuleName } from '../requirements.js';

/**
 * The verdict on one answer's content type.
 *
 * @example
 * ```ts
 * import { contentTypeVerdict } from './content-type.js';
 *
 * contentTypeVerdict({ contentType: 'application/json' }); // 'warn'
 * ```
 */
export function contentTypeVerdict(answer: { contentType: string }): 'pass' | 'warn' | 'fail' {
  if (answer.contentType === 'application/hal+json') return 'pass';
  if (answer.contentType === 'application/json' || answer.contentType.endsWith('+json'))
    return 'warn';
  return 'fail';
}

/** Adds a check of `answer`'s content type. */
export function checkContentType(
  context: CheckContext,
  area: CheckArea,
  rule: RuleName,
  answer: ProbeResponse,
): void {
  const verdict = contentTypeVerdict(answer);
  context.add(
    area,
    rule,
    verdict,
    verdict === 'pass'
      ? 'application/hal+json'
      : `Content-Type is ${answer.contentType || '(none)'}${verdict === 'warn' ? ', not application/hal+json' : ': a client cannot expect JSON'}`,
    { spec: 'HAL draft: media type application/hal+json', url: answer.url },
  );
}
