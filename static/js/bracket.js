/* Follow a player through the bracket: hovering or focusing one of their slots
   lights up every slot they filled and every line they travelled. */
(function () {
  "use strict";

  function init() {
  document.querySelectorAll("[data-bracket]").forEach(function (svg) {
    if (svg.dataset.traced) return;  // a live update swaps in new drawings; each is set up once
    svg.dataset.traced = "1";
    function clear() {
      svg.classList.remove("is-tracing");
      svg.querySelectorAll(".is-path").forEach(function (node) { node.classList.remove("is-path"); });
    }

    function trace(entrants) {
      clear();
      if (!entrants.length) return;
      svg.classList.add("is-tracing");
      entrants.forEach(function (id) {
        svg.querySelectorAll('[data-entrant="' + CSS.escape(id) + '"]').forEach(function (node) {
          node.classList.add("is-path");
        });
      });
    }

    svg.addEventListener("mouseover", function (event) {
      var slot = event.target.closest(".bracket__slot[data-entrant]");
      trace(slot ? [slot.dataset.entrant] : []);
    });
    svg.addEventListener("mouseleave", clear);
    // Keyboard users tab from match to match: show both players' paths.
    svg.addEventListener("focusin", function (event) {
      var match = event.target.closest(".bracket__match");
      if (!match) return;
      trace(Array.prototype.map.call(match.querySelectorAll(".bracket__slot[data-entrant]"), function (slot) {
        return slot.dataset.entrant;
      }));
    });
    svg.addEventListener("focusout", clear);
  });
  }
  init();
  document.addEventListener("live:updated", init);
})();
