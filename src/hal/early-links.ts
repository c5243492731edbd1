import { isJsonObject } from './link.js';

/**
 * The `_links` of a HAL document read off the start of its text, before the rest of
 * the body has arrived or been parsed; undefined when that start does not hold the
 * whole top-level `_links` member yet (or is no JSON object at all).
 *
 * Why: a page of 100 people is about 230 kB of JSON, and parsing it is most of what a
 * client spends on a page. A server that writes `_links` before `_embedded` (the
 * reference server does, and most do) says where the next page is within the first
 * few kilobytes, so a read-ahead can ask for it while this page is still being read.
 *
 * Only the top level counts: the scan skips over strings (escapes included) and nested
 * values, so a `_links` inside an embedded record or a string is never taken for the
 * document's. The member's text is given to JSON.parse, so what comes back is exactly
 * what the whole parse will give, unless the document repeats the `_links` key (JSON.parse
 * keeps the last one): callers treat the answer as a hint and check it against the
 * parsed document.
 *
 * @example
 * ```ts
 * import { earlyLinks } from './early-links.js';
 *
 * earlyLinks('{"page":1,"_links":{"next":{"href":"/people?page=2"}},"_embedded":{"std:pe');
 * // { next: { href: '/people?page=2' } }
 * ```
 */
export function earlyLinks(text: string): Record<string, unknown> | undefined {
  let index = skipSpace(text, 0);
  if (text[index] !== '{') return undefined;
  index += 1;
  for (;;) {
    index = skipSpace(text, index);
    if (text[index] !== '"') return undefined;
    const keyEnd = stringEnd(text, index);
    if (keyEnd < 0) return undefined;
    const key = text.slice(index + 1, keyEnd - 1);
    index = skipSpace(text, keyEnd);
    if (text[index] !== ':') return undefined;
    const valueStart = skipSpace(text, index + 1);
    const valueEnd = valueEndAt(text, valueStart);
    if (valueEnd < 0) return undefined;
    // A key spelled with escapes (`"\u005flinks"`) is not recognised: the whole parse
    // still reads it, only without the head start.
    if (key === '_links') {
      try {
        const links: unknown = JSON.parse(text.slice(valueStart, valueEnd));
        return isJsonObject(links) ? links : undefined;
      } catch {
        return undefined;
      }
    }
    index = skipSpace(text, valueEnd);
    if (text[index] !== ',') return undefined;
    index += 1;
  }
}

function skipSpace(text: string, from: number): number {
  let index = from;
  for (;;) {
    const char = text.charCodeAt(index);
    // space, tab, line feed, carriage return
    if (char !== 32 && char !== 9 && char !== 10 && char !== 13) return index;
    index += 1;
  }
}

/** The index just after the string starting at `start` (a `"`), or -1 when it is cut. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  for (;;) {
    const quote = text.indexOf('"', index);
    if (quote < 0) return -1;
    // A quote preceded by an odd number of backslashes is escaped.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    index = quote + 1;
  }
}

/** The index just after the JSON value starting at `start`, or -1 when it is cut. */
function valueEndAt(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== '{' && first !== '[') {
    // A number, true, false or null: it ends where the member does.
    for (let index = start; index < text.length; index += 1) {
      const char = text[index];
      if (char === ',' || char === '}' || char === ']') return index;
    }
    return -1;
  }
  let depth = 0;
  let index = start;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 34) {
      index = stringEnd(text, index);
      if (index < 0) return -1;
      continue;
    }
    if (char === 123 || char === 91) depth += 1;
    else if (char === 125 || char === 93) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
    index += 1;
  }
  return -1;
}
