// The installed site (docs/RULES.md, "The installed site"): the service worker at /sw.js keeps
// the page's files and an offline page (games/templates/games/sw.js).  Where there is none
// (an old browser, a page not served over https), the site works as before.
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => { /* the site works without it */ });
  });
}
