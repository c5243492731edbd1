/**
 * The nesting limit of request bodies, checked on the raw text before it is parsed.
 *
 * Why a limit: the server walks documents recursively (validation, the update merge,
 * dropping nulls, rendering), so a body like `[[[[…` 16 KiB deep would overflow the
 * stack somewhere past JSON.parse and end as a 500. Why on the text: a scan of the
 * characters needs no recursion and no parsed tree, so the check itself cannot fail the
 * way the walks it protects would.
 */

/**
 * Deepest nesting of arrays and objects a request body may have; the body object itself
 * is level 1. The deepest document of the specification (a helper's person with an
 * address and its location) is about 6 levels; 32 leaves room for free-form members and
 * stays far from any stack limit.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]

/**
 * The 0-based position of the first `[` or `{` that opens a level deeper than `max` in
 * a JSON text, or undefined when the text never goes deeper. Brackets inside strings
 * do not count. The text need not be valid JSON: parsing reports other problems after
 * this check.
 *
 * @example
 * ```ts
 * import { tooDeepAt } from './json-depth.js';
 *
 * tooDeepAt('{"a":[1,{"b":2}]}', 3); // undefined (3 levels)
 * tooDeepAt('[[["[[[["]]]', 2); // 2
 * ```
 */
export function tooDeepAt(text: string, max: number = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > max) return i;
    } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && depth > 0) {
      // Never below 0: stray closers must not buy room for deeper nesting later.
      depth--;
    }
  }
  return undefined;
}
