/* Playing cards drawn as the `{% card %}` template tag draws them (web/templatetags/cards.py),
   for the scripts that draw cards themselves: the replay viewer and the table page, with the few
   helpers both build their pages with. Loaded before them; sets `window.SpeedCards`. Plain
   script, no inline code (the site's CSP). */
(function () {
  "use strict";

  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
  var COURT = { J: true, Q: true, K: true };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  // "Q♥", "Joker": a card in a sentence.
  function short(card) {
    if (!card) return "";
    if (card === "JK") return "Joker";
    return card.slice(0, -1) + (SUITS[card.slice(-1)] || "");
  }

  // "Queen of hearts", "Joker".
  function label(card) {
    if (card === "JK") return "Joker";
    var rank = card.slice(0, -1);
    return (RANK_NAMES[rank] || rank) + " of " + (SUIT_NAMES[card.slice(-1)] || card.slice(-1));
  }

  // A card face. `labelled`: an image named by the card (the replay); otherwise hidden from
  // assistive technology, for a control that carries the card's name itself (the table's buttons).
  function face(card, labelled) {
    var node = el("span", "pcard");
    if (labelled) {
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", label(card));
      node.dataset.card = card;
    } else {
      node.setAttribute("aria-hidden", "true");
    }
    var corner, pip;
    if (card === "JK") {
      node.classList.add("pcard--joker");
      corner = ["JK"];
      pip = "★";
    } else {
      var rank = card.slice(0, -1);
      var suit = card.slice(-1);
      var symbol = SUITS[suit] || suit;
      if (suit === "H" || suit === "D") node.classList.add("pcard--red");
      if (COURT[rank]) node.classList.add("pcard--court");
      corner = [rank, symbol];
      pip = COURT[rank] ? rank + symbol : symbol;
    }
    ["tl", "br"].forEach(function (where, i) {
      var c = el("span", "pcard__corner pcard__corner--" + where);
      c.setAttribute("aria-hidden", "true");
      corner.forEach(function (part) { c.appendChild(el("span", null, part)); });
      node.appendChild(c);
      if (i === 0) {
        var p = el("span", "pcard__pip", pip);
        p.setAttribute("aria-hidden", "true");
        node.appendChild(p);
      }
    });
    return node;
  }

  window.SpeedCards = { SUITS: SUITS, el: el, plural: plural, short: short, label: label, face: face };
}());
