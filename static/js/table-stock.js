/* Spit's stock piles at the table page (docs/table-protocol.md, "The games of the extension").

   In a tableau game a seat plays from its stock piles, not from a hand: each position shows its
   face-up top (or nothing, when empty) over a count of the cards face down under it. The seat's own
   piles are buttons: choose a top, then a centre pile to play it there, or an empty position of
   your own to move it there. Everyone else's piles lie open on the table and are drawn as pictures.

   `window.SpeedTableStock`: `row` draws one seat's piles, `lastWords` says a tableau event in words.
   Loaded before table.js, which owns the state and the socket. Plain script, no inline code (CSP). */
(function () {
  "use strict";

  var Cards = window.SpeedCards;

  var el = Cards.el, plural = Cards.plural, short = Cards.short;

  // One position's picture: its face-up top, else a back (cards face down) or an empty place.
  function picture(pile) {
    var node = pile.top ? Cards.face(pile.top, false) : el("span", "pcard " + (pile.down ? "pcard--back" : "pcard--empty"));
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  function describe(pile, index) {
    var words = "Stock pile " + (index + 1) + ": " + (pile.top ? Cards.label(pile.top) : "empty");
    if (pile.down) words += ", " + plural(pile.down, "card") + " face down";
    return words;
  }

  // One seat's stock piles. `own`: buttons this page plays with ({chosen, enabled}); else a picture.
  function row(piles, own) {
    var box = el("div", "tt-stock");
    piles.forEach(function (pile, index) {
      var slot;
      if (own) {
        slot = el("button", "tt-stock__pile");
        slot.type = "button";
        slot.disabled = !own.enabled;
        var chosen = own.chosen === index;
        slot.setAttribute("aria-pressed", String(chosen));
        if (chosen) slot.classList.add("is-chosen");
        // With a card chosen, an empty position of one's own is where it may move.
        if (own.chosen !== null && !pile.top && own.enabled) slot.classList.add("is-target");
        slot.setAttribute("aria-label", describe(pile, index) + (index < 9 ? " (key " + (index + 1) + ")" : ""));
      } else {
        slot = el("div", "tt-stock__pile");
        slot.setAttribute("role", "img");
        slot.setAttribute("aria-label", describe(pile, index));
      }
      slot.dataset.stock = String(index);
      slot.dataset.card = pile.top || "";
      slot.dataset.down = String(pile.down);
      slot.appendChild(picture(pile));
      if (pile.down) slot.appendChild(el("span", "tt-pile__count", "+" + pile.down));
      if (own && index < 9) slot.appendChild(el("kbd", "tt-key", String(index + 1)));
      box.appendChild(slot);
    });
    return box;
  }

  // A tableau event in words, or null for any other: a play from a stock pile, a move between them.
  function lastWords(last, who) {
    if (last.type === "move") {
      return who + " moved " + short(last.card) + " from stock pile " + (last.from + 1) + " to " + (last.to + 1);
    }
    if (last.type === "play" && last.from !== undefined && last.from !== null) {
      return who + " played " + short(last.card) + " from stock pile " + (last.from + 1) + " on pile " + (last.pile + 1);
    }
    if (last.type === "reshuffle" && who) return who + " shuffled their spit pile back into their spit cards";
    return null;
  }

  window.SpeedTableStock = { row: row, lastWords: lastWords };
}());
