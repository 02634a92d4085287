// The image proxy's signing key (the image_proxy_key table).
import type { Store } from './db.js';

export function selectImageProxyKey(store: Store): Buffer | undefined {
  return store.get<{ key: Buffer }>('SELECT key FROM image_proxy_key WHERE id = 1')?.key;
}

/** Keeps the key another process may have stored first. */
export function insertImageProxyKey(store: Store, key: Buffer): void {
  store.run('INSERT INTO image_proxy_key (id, key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING', key);
}
