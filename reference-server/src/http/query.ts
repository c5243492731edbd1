/**
 * Reading query parameters that may appear once.
 */
import type { Context } from 'hono';
import { apiError, ErrorCode } from '../domain/errors.js';
import type { AppEnv } from './env.js';

/**
 * The value of a query parameter that may be given once, or undefined when absent.
 * Given more than once it is a 400 `INVALID_PARAMETER`: silently using the first value
 * would answer a question the client did not ask (two `filter`s would return more
 * records than either asks for, two `page`s one page the client cannot tell apart).
 */
export function singleQuery(c: Context<AppEnv>, name: string): string | undefined {
  const values = c.req.queries(name);
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) {
    throw apiError(400, ErrorCode.INVALID_PARAMETER, `give query parameter ${name} once`, {
      properties: [name],
    });
  }
  return values[0];
}
