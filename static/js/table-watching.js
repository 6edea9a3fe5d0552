/* The table page's count of spectators: GET /api/tables/{id}/ every few seconds, its `watching`
   drawn as "N watching". Kept out of the socket's state on purpose: a spectator coming or going
   bumps no `v`, so no seat's state is sent again for it. A hidden tab does not poll; it asks again
   as soon as it is shown. A failed poll keeps the last count and tries again at the next.

   Plain script, no inline code (the site's Content-Security-Policy). */
(function () {
  "use strict";

  var EVERY_MS = 5000;
  var shown = document.querySelector("[data-role=watching]");
  if (!shown) return;
  var url = shown.getAttribute("data-watching-url");
  var timer = null;
  var asking = false;

  var draw = function (watching) {
    shown.textContent = watching + " watching";
    shown.setAttribute("data-watching", String(watching));
  };

  var poll = function () {
    timer = null;
    if (document.hidden || asking) return;
    asking = true;
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (table) { if (table && typeof table.watching === "number") draw(table.watching); })
      .catch(function () { /* the next poll tries again */ })
      .then(function () {
        asking = false;
        if (timer === null) timer = window.setTimeout(poll, EVERY_MS);
      });
  };

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && timer === null && !asking) poll();
  });
  poll();
})();
