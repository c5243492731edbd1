/**
 * The signup widget's page, kept for offline use: a person who reloads without a
 * connection gets the form back (and the entries saved on the device are still shown
 * and sent later), instead of the browser's "no internet" page.
 *
 * Only this site's own GET requests are answered here: the page and its script, from
 * the network while there is one (so a new version is seen at once) and from the
 * cache when there is none. Calls to the API (another origin, POSTs) are never touched:
 * the signup queue keeps those itself, with their Idempotency-Keys.
 */
const CACHE = 'signup-widget-v1';
/** What the page needs to load: itself and its script (relative to this file). */
const PAGE = ['./', './dist/widget.js'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PAGE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      // The page that registered this worker is kept from its first load, not the second.
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })
      .catch(async () => {
        const cached = await caches.match(request);
        if (cached) return cached;
        // A page address never loaded before (another query string): the page itself.
        if (request.mode === 'navigate') {
          const page = await caches.match('./');
          if (page) return page;
        }
        return Response.error();
      }),
  );
});
