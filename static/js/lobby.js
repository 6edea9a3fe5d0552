/* The lobby (/play/): when the poll (static/js/site.js) brings the news that someone accepted your
   game, go to its table. A table already shown when the page loaded only keeps its link, so coming
   back to the lobby from a table does not bounce you to it.

   Plain script, no inline code (the site's Content-Security-Policy). */
(function () {
  "use strict";

  var table = function () {
    var go = document.querySelector("[data-role=lobby-go]");
    return go ? go.getAttribute("data-go") : null;
  };
  var shown = table();

  document.addEventListener("live:updated", function () {
    var now = table();
    if (now && now !== shown) window.location.assign(now);
  });
})();
