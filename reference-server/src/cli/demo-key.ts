/**
 * The demo tenant's write key: what lets someone try the server without writing a keys
 * file first, and what must not linger once they have one.
 */
import { randomBytes } from 'node:crypto';
import type { Storage } from '../storage/storage.js';

/** What decides the demo key's fate at start. */
export interface DemoKeyOptions {
  /** A keys file was given (`--keys`): no demo key is made. */
  keysFile: boolean;
  /** `--remove-demo-key`: remove the one an earlier start made. */
  remove: boolean;
}

/**
 * The demo tenant's write key. Without a keys file: the one in the database, else a new
 * one, printed either way. With one: a demo key an earlier start left in the database
 * still works, so say so (and remove it with `--remove-demo-key`). Called last in the
 * start, once nothing else can fail: a start that fails leaves no key behind in a
 * database other instances share.
 */
export async function demoKey(storage: Storage, options: DemoKeyOptions): Promise<void> {
  const existing = (await storage.tenants.getSetting('demo_token')) || undefined;
  if (options.remove) {
    await storage.transaction(async () => {
      await storage.tenants.removeApiKeys('demo');
      await storage.tenants.setSetting('demo_token', '');
    });
    console.log(
      existing
        ? 'Demo key removed from the database (--remove-demo-key)'
        : 'No demo key in the database to remove (--remove-demo-key)',
    );
    return;
  }
  if (options.keysFile) {
    if (existing) {
      console.log(
        `Note: the database also holds a demo key (tenant demo, write: ${existing.slice(0, 9)}…), made by an earlier start without --keys; it still works. --remove-demo-key removes it.`,
      );
    }
    return;
  }
  let token = existing;
  if (!token) {
    // 18 random bytes: 24 base64url characters, beyond guessing.
    const made = `demo-${randomBytes(18).toString('base64url')}`;
    await storage.transaction(async () => {
      await storage.tenants.putApiKey(made, 'demo', 'write', 'demo');
      await storage.tenants.setSetting('demo_token', made);
    });
    token = made;
  }
  console.log(`API key (demo tenant, write): ${token}`);
}
