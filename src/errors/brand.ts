/**
 * Marks every error this SDK throws. `Symbol.for` returns the same symbol in every
 * copy of the module (two bundled versions, an iframe, a worker), so a check against
 * it survives where `instanceof` does not.
 *
 * @internal
 */
export const ADIS_ERROR_BRAND: unique symbol = Symbol.for('adis-sdk.error');

/**
 * Whether a value carries the SDK's error brand.
 *
 * @internal
 */
export function hasAdisBrand(value: unknown): value is Error & { [ADIS_ERROR_BRAND]: true } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [ADIS_ERROR_BRAND]?: unknown })[ADIS_ERROR_BRAND] === true
  );
}
