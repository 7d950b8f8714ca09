{% autoescape off %}// The service worker (games/views.py, service_worker; docs/RULES.md, "The installed site"): the
// site's own files from its cache, by their hashed names (a deploy's new names make cache
// {{ version }} anew and the old one goes), every page from the network, and the offline page
// when the network fails.  Nothing else is kept: a game is the server's, and every post goes to it.
const CACHE = "addiction-{{ version }}";
const OFFLINE = {{ offline }};
const FILES = [...{{ files }}, OFFLINE];
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;  // collectstatic's names never change: safe to keep

// Fetched without the visitor's cookies: nothing of theirs is kept (the offline page names nobody).
self.addEventListener("install", (event) => {
  const requests = FILES.map((file) => new Request(file, { credentials: "omit" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  const path = new URL(request.url).pathname;
  if (path.startsWith("/static/") && HASHED.test(path)) {
    event.respondWith(caches.match(request.url).then((kept) => kept || fetch(request)));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});
{% endautoescape %}
