/**
 * The answer for a record that does not exist: 404, and a body that is none (as the
 * specification's table says) or an error the spec's way, a `<prefix>:error` member
 * that decodes. The address is a sample record's `self` with its last segment replaced:
 * the one place the checker makes a URL, since no link leads to a missing record.
 */
import { decodeStdError, errorMemberOf } from '../../errors/decode-std-error.js';
import { isJsonObject } from '../../hal/link.js';
import { type CheckContext, SPEC } from '../context.js';
import type { ProbeResponse } from '../prober.js';
import type { RuleName } from '../requirements.js';

/** Asks for a record that does not exist, and checks the answer and its body. */
export async function checkErrors(context: CheckContext): Promise<void> {
  const sample = [...context.samples.values()][0]?.selfUrl;
  if (!sample) {
    context.add('errors', 'errors.not-found', 'skip', 'no record whose address to vary', {
      spec: SPEC.errors,
    });
    return;
  }
  const missing = new URL(sample);
  const segments = missing.pathname.replace(/\/$/, '').split('/');
  segments[segments.length - 1] = `adis-check-missing-${crypto.randomUUID()}`;
  missing.pathname = segments.join('/');
  const url = missing.href;
  const answer = await context.request(url);
  context.add(
    'errors',
    'errors.not-found',
    answer.status === 404 ? 'pass' : 'fail',
    answer.status === 404
      ? 'a record that does not exist answers 404'
      : `a record that does not exist answers ${answer.status}, not 404`,
    { spec: SPEC.errors, url },
  );
  checkErrorBody(context, 'errors', 'errors.std-error', answer);
}

/** Checks an error answer's body: none, or a `std:error` (any prefix) that decodes. */
export function checkErrorBody(
  context: CheckContext,
  area: 'errors' | 'authentication',
  rule: RuleName,
  answer: ProbeResponse,
): void {
  const extra = { spec: SPEC.errorObject, url: answer.url };
  if (answer.text.trim() === '') {
    context.add(
      area,
      rule,
      'pass',
      `the ${answer.status} has no body, as the specification's table allows`,
      extra,
    );
    return;
  }
  if (!isJsonObject(answer.json)) {
    context.add(
      area,
      rule,
      'fail',
      `the ${answer.status}'s body is not JSON${answer.contentType ? ` (${answer.contentType})` : ''}: no client can decode it`,
      extra,
    );
    return;
  }
  const member = errorMemberOf(answer.json);
  const decoded = decodeStdError(answer.json);
  if (member && decoded && decoded.resource_status.length > 0) {
    context.add(
      area,
      rule,
      'pass',
      `the ${answer.status}'s body is an error object (${member}) that decodes, with ${decoded.resource_status.length} resource_status`,
      extra,
    );
  } else if (member) {
    context.add(
      area,
      rule,
      'fail',
      `the ${answer.status}'s body has ${member}, but no resource_status the specification's way`,
      extra,
    );
  } else {
    context.add(
      area,
      rule,
      'fail',
      `the ${answer.status}'s body is not a std:error (members: ${Object.keys(answer.json).slice(0, 5).join(', ') || 'none'})${decoded ? '; the SDK still decodes it' : ''}`,
      // The body's members, for a vendor that documents its error bodies' shape.
      { ...extra, subject: { members: Object.keys(answer.json) } },
    );
  }
}
