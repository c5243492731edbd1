/**
 * How API keys are stored, the same on every engine: only hashed, so a leaked database
 * does not leak usable keys.
 */
import { createHash } from 'node:crypto';

/**
 * sha256 of an API key, hex. (The keys are random, so an unsalted fast hash is enough.)
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
