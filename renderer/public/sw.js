// Giftlink's service worker: shows the server's Web Push notifications (api/src/push/channel.ts),
// opens their page on a click, and answers a navigation the network fails with the offline page.
// Plain JS served as is at /sw.js (no-cache), so its scope is the whole site.
const CACHE = 'giftlink-offline-v1';
const OFFLINE = '/offline.html';
const PRECACHE = [OFFLINE, '/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      // Navigations go to the network at once while the worker starts.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(
    (async () => {
      try {
        return (await event.preloadResponse) || (await fetch(event.request));
      } catch {
        return (await caches.match(OFFLINE)) || Response.error();
      }
    })(),
  );
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    // Not ours: show nothing made up.
  }
  if (!data.title) return;
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: data.body,
      tag: data.tag,
      renotify: Boolean(data.tag),
      icon: '/icons/icon-192.png',
      data: { url: data.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  // Only pages of this site are opened.
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: 'window' });
      // A tab already on that page, else any tab of the app (a controlled one can be sent there).
      const tab = open.find((c) => c.url === url) || open[0];
      if (tab) {
        await tab.focus().catch(() => {});
        if (tab.url !== url) await tab.navigate(url);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
