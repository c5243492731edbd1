/**
 * Member names a request body may not use.
 *
 * JSON allows any member name, but `__proto__` is special in JavaScript: JSON.parse
 * makes it an own member, and every later copy (`out[key] = value` in validation, the
 * update merge, dropping nulls) sets the copy's prototype instead. A custom field named
 * `__proto__` would be answered with 201 and silently lost. Refusing it at the edge says
 * so instead.
 */
import { propertyPath } from '../domain/validation.js';

/** The names refused anywhere in a body. */
export const RESERVED_MEMBER_NAMES: ReadonlySet<string> = new Set(['__proto__']);

/**
 * The indexed path (`custom_fields.__proto__`, `phone_numbers[0].__proto__`) of the
 * first member of a parsed body named in {@link RESERVED_MEMBER_NAMES}, or undefined when
 * there is none. Walks with its own stack, not by recursion, so any depth is safe (the
 * depth limit has been checked before, but this does not rely on it).
 *
 * @example
 * ```ts
 * import { reservedMemberPath } from './member-names.js';
 *
 * reservedMemberPath(JSON.parse('{"custom_fields":{"__proto__":"x"}}')); // 'custom_fields.__proto__'
 * reservedMemberPath({ given_name: 'Ana' }); // undefined
 * ```
 */
export function reservedMemberPath(value: unknown): string | undefined {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value, path: [] }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value: current, path } = entry;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        stack.push({ value: current[index], path: [...path, index] });
      }
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, member] of Object.entries(current)) {
        if (RESERVED_MEMBER_NAMES.has(key)) return propertyPath([...path, key]);
        stack.push({ value: member, path: [...path, key] });
      }
    }
  }
  return undefined;
}
