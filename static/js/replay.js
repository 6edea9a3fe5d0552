/* The replay viewer: draws one step of a verified (or rejected) game from the
   engine's steps, embedded in the page by json_script as #replay-data.

   Plain script, no framework. Every step is drawn from its own data (never by
   applying differences), so jumping anywhere is as cheap as stepping. */
(function () {
  "use strict";

  var root = document.querySelector("[data-replay]");
  var dataNode = document.getElementById("replay-data");
  if (!root || !dataNode) return;

  var data = JSON.parse(dataNode.textContent);
  var steps = data.steps || [];
  if (!steps.length) return;
  var players = data.players || [];
  var last = steps.length - 1;
  var failStep = data.failStep;

  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
  var COURT = { J: true, Q: true, K: true };

  function $(role) { return root.querySelector('[data-role="' + role + '"]'); }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function cardText(card) {
    if (!card) return "—";
    if (card === "JK") return "JK";
    return card.slice(0, -1) + (SUITS[card.slice(-1)] || card.slice(-1));
  }

  function cardLabel(card) {
    if (card === "JK") return "Joker";
    var rank = card.slice(0, -1);
    return (RANK_NAMES[rank] || rank) + " of " + (SUIT_NAMES[card.slice(-1)] || card.slice(-1));
  }

  // The same markup as the `{% card %}` template tag (web/templatetags/cards.py).
  function cardNode(card) {
    var node = el("span", "pcard");
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", cardLabel(card));
    node.dataset.card = card;
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

  // A face-down pile: one card back with the count on it, or an empty outline.
  function faceDownPile(count, label, role) {
    var pile = el("div", "pile");
    pile.dataset.role = role;
    pile.dataset.count = String(count);
    var stack = el("div", "pile__stack" + (count > 1 ? " pile__stack--deep" : ""));
    var card = el("span", "pcard " + (count ? "pcard--back" : "pcard--empty"));
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", label + ": " + count + (count === 1 ? " card" : " cards") + " face down");
    stack.appendChild(card);
    var badge = el("span", "pile__count", String(count));
    badge.setAttribute("aria-hidden", "true");
    stack.appendChild(badge);
    pile.appendChild(stack);
    pile.appendChild(el("span", "pile__label", label));
    return pile;
  }

  function clock(t) {
    t = Math.max(t || 0, 0);
    var minutes = Math.floor(t / 60000);
    var seconds = (t % 60000) / 1000;
    return minutes + ":" + (seconds < 10 ? "0" : "") + seconds.toFixed(1);
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  // ---------- Drawing one step ----------

  var seatsTop = $("seats-top");
  var seatsBottom = $("seats-bottom");
  var centre = $("centre");
  var description = $("description");
  var stepLabel = $("step-label");
  var eventLine = $("event");
  var clockNode = $("clock");
  var scrubber = $("scrubber");
  var countsBody = $("counts-body");
  var totalNode = $("total");
  var packCheck = $("pack-check");
  var marker = $("chart-marker");
  var dots = root.querySelectorAll('[data-role="chart-dot"]');
  var legendCounts = root.querySelectorAll('[data-role="legend-count"]');
  var transcript = $("transcript");
  var chart = data.chart;

  // Seats split around the centre: the later half across the table, the first half nearest the viewer.
  var half = Math.ceil(players.length / 2);
  var topSeats = [];
  var bottomSeats = [];
  players.forEach(function (_, seat) { (seat >= half ? topSeats : bottomSeats).push(seat); });
  if (players.length === 2) { topSeats = [1]; bottomSeats = [0]; }

  function drawSeat(step, seat) {
    var box = el("section", "seat");
    box.dataset.seat = String(seat);
    box.setAttribute("aria-label", players[seat]);
    var finished = step.cards_left[seat] === 0;
    if (data.verdict.winner === seat && finished) box.classList.add("seat--winner");
    var head = el("div", "seat__head");
    var name = el("span", "seat__name series-" + (seat % 4));
    var swatch = el("span", "seat__swatch");
    swatch.setAttribute("aria-hidden", "true");
    name.appendChild(swatch);
    name.appendChild(el("span", null, players[seat] || "Seat " + seat));
    head.appendChild(name);
    var left = el("span", "seat__left");
    var strong = el("strong", null, String(step.cards_left[seat]));
    strong.dataset.role = "cards-left";
    left.appendChild(strong);
    left.appendChild(document.createTextNode(" left to play"));
    head.appendChild(left);
    box.appendChild(head);

    box.appendChild(faceDownPile(step.draws[seat], "Draw pile", "draw"));
    var hand = el("div", "hand");
    hand.dataset.role = "hand";
    hand.setAttribute("aria-label", players[seat] + "'s hand, " + plural(step.hand_cards[seat].length, "card"));
    hand.setAttribute("role", "list");
    if (!step.hand_cards[seat].length) hand.appendChild(el("span", "hand__empty", "No cards in hand"));
    step.hand_cards[seat].forEach(function (card) {
      var node = cardNode(card);
      var item = el("span");
      item.setAttribute("role", "listitem");
      item.appendChild(node);
      hand.appendChild(item);
    });
    box.appendChild(hand);
    return box;
  }

  function drawCentre(step, previous) {
    centre.textContent = "";
    step.piles.forEach(function (count, pile) {
      var group = el("div", "centre__group");
      if (step.stacks.length > pile) {
        group.appendChild(faceDownPile(step.stacks[pile], "Stack " + pile, "stack"));
      }
      var box = el("div", "pile pile--centre");
      box.dataset.role = "pile";
      box.dataset.count = String(count);
      var holder = el("div", "pile__stack");
      var top = step.pile_tops[pile];
      var card;
      if (top) {
        card = cardNode(top);
        card.setAttribute("aria-label", "Pile " + pile + ": " + cardLabel(top) + " on top, " + plural(count, "card"));
      } else {
        card = el("span", "pcard pcard--empty");
        card.setAttribute("role", "img");
        card.setAttribute("aria-label", "Pile " + pile + ": empty");
      }
      if (previous && (previous.piles[pile] !== count || previous.pile_tops[pile] !== top)) {
        card.classList.add("pcard--changed", "pcard--new");
      }
      holder.appendChild(card);
      var badge = el("span", "pile__count", String(count));
      badge.setAttribute("aria-hidden", "true");
      holder.appendChild(badge);
      box.appendChild(holder);
      box.appendChild(el("span", "pile__label", "Pile " + pile));
      group.appendChild(box);
      centre.appendChild(group);
    });
  }

  function countRow(label, value, sub) {
    var tr = el("tr", sub ? "counts__sub" : "");
    var th = el("th", null, label);
    th.setAttribute("scope", "row");
    tr.appendChild(th);
    tr.appendChild(el("td", null, String(value)));
    return tr;
  }

  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }

  function drawCounts(step) {
    countsBody.textContent = "";
    players.forEach(function (name, seat) {
      countsBody.appendChild(countRow(name + " · hand", step.hands[seat]));
      countsBody.appendChild(countRow(name + " · draw pile", step.draws[seat]));
    });
    countsBody.appendChild(countRow("Centre piles (" + step.piles.join(" + ") + ")", sum(step.piles)));
    if (step.stacks.length) {
      countsBody.appendChild(countRow("Replacement stacks (" + step.stacks.join(" + ") + ")", sum(step.stacks)));
    }
    // Recount here rather than trusting `total`, so the check means something.
    var counted = sum(step.hands) + sum(step.draws) + sum(step.piles) + sum(step.stacks);
    totalNode.textContent = String(counted);
    var ok = counted === data.pack && step.total === counted;
    packCheck.textContent = "";
    var mark = el("span", ok ? "ok" : "bad", data.pack + (ok ? " ✓" : " ✗"));
    mark.dataset.role = "pack";
    mark.setAttribute("aria-label", ok ? "equals the pack of " + data.pack : "does not equal the pack of " + data.pack);
    packCheck.appendChild(mark);
  }

  function drawChart(index, step) {
    if (!chart || !marker) return;
    var x = chart.count > 1 ? chart.left + (chart.width * index) / (chart.count - 1) : chart.left;
    marker.setAttribute("x1", x);
    marker.setAttribute("x2", x);
    var span = chart.yMax - chart.yMin || 1;
    Array.prototype.forEach.call(dots, function (dot, seat) {
      var y = chart.top + chart.height * (1 - (step.cards_left[seat] - chart.yMin) / span);
      dot.setAttribute("cx", x);
      dot.setAttribute("cy", y);
    });
    Array.prototype.forEach.call(legendCounts, function (node, seat) {
      node.textContent = String(step.cards_left[seat]);
    });
  }

  var currentItem = null;
  function drawTranscript(index) {
    if (!transcript) return;
    if (currentItem) currentItem.classList.remove("is-current");
    currentItem = document.getElementById("replay-step-" + index);
    if (!currentItem) return;
    currentItem.classList.add("is-current");
    var link = currentItem.querySelector("a");
    if (link) {
      transcript.querySelectorAll('[aria-current="step"]').forEach(function (a) { a.removeAttribute("aria-current"); });
      link.setAttribute("aria-current", "step");
    }
    // Keep the current line visible inside the list without scrolling the page.
    var top = currentItem.offsetTop - transcript.offsetTop;
    if (top < transcript.scrollTop || top > transcript.scrollTop + transcript.clientHeight - currentItem.offsetHeight) {
      transcript.scrollTop = Math.max(top - transcript.clientHeight / 2, 0);
    }
  }

  var index = -1;

  function show(target, options) {
    target = Math.max(0, Math.min(last, target | 0));
    var previous = index >= 0 && Math.abs(target - index) === 1 ? steps[Math.min(target, index)] : null;
    // Only the forward move highlights a changed pile; stepping back shows the table as it was.
    if (target < index) previous = null;
    index = target;
    var step = steps[index];

    seatsTop.textContent = "";
    seatsBottom.textContent = "";
    topSeats.forEach(function (seat) { seatsTop.appendChild(drawSeat(step, seat)); });
    bottomSeats.forEach(function (seat) { seatsBottom.appendChild(drawSeat(step, seat)); });
    drawCentre(step, previous);
    drawCounts(step);
    drawChart(index, step);
    drawTranscript(index);

    stepLabel.textContent = "Step " + index + " of " + last;
    var text = step.description;
    var failing = failStep !== null && failStep !== undefined && index === failStep && data.verdict.event !== null;
    if (failing) {
      text += " — next, event " + data.verdict.event + " is rejected (" + data.verdict.code + "): " + data.verdict.message;
    }
    description.textContent = text;
    eventLine.classList.toggle("event-line--fail", failing);
    clockNode.textContent = clock(step.t);
    scrubber.value = String(index);
    scrubber.setAttribute("aria-valuetext", "Step " + index + " of " + last + ": " + step.description);

    setDisabled("first", index === 0);
    setDisabled("prev", index === 0);
    setDisabled("next", index === last);
    setDisabled("last", index === last);

    if (!options || options.hash !== false) writeHash(index);
    root.dataset.step = String(index);
  }

  // aria-disabled (not `disabled`) so a focused button keeps the focus at either end.
  function setDisabled(action, off) {
    var button = root.querySelector('[data-action="' + action + '"]');
    if (button) button.setAttribute("aria-disabled", off ? "true" : "false");
  }

  // ---------- The step in the address: #step=17 ----------

  function readHash() {
    var match = /(?:^#|&)step=(\d+)/.exec(window.location.hash);
    return match ? parseInt(match[1], 10) : null;
  }

  var hashWritten = false;
  function writeHash(i) {
    // Before the first move the address is left alone, so a plain link stays plain.
    if (!hashWritten && readHash() === null && i === 0) return;
    hashWritten = true;
    var hash = "#step=" + i;
    // replaceState: stepping through a game should not fill the back button's history.
    if (window.location.hash !== hash) history.replaceState(null, "", hash);
  }

  window.addEventListener("hashchange", function () {
    var i = readHash();
    if (i !== null && i !== index) {
      pause();
      show(i, { hash: false });
    }
  });

  // ---------- Playback ----------

  var timer = null;
  var speed = $("speed");
  var playButton = root.querySelector('[data-action="play"]');

  function delay() {
    if (speed.value === "clock") {
      // Real time between events, but never a long wait for a long think, nor a flicker.
      var gap = steps[Math.min(index + 1, last)].t - steps[index].t;
      return Math.min(Math.max(gap, 120), 2500);
    }
    return 1000 / parseFloat(speed.value);
  }

  function tick() {
    if (index >= last) { pause(); return; }
    show(index + 1);
    timer = index >= last ? null : window.setTimeout(tick, delay());
    if (!timer) pause();
  }

  function play() {
    if (timer) return;
    if (index >= last) show(0);
    setPlaying(true);
    timer = window.setTimeout(tick, delay());
  }

  function pause() {
    if (timer) window.clearTimeout(timer);
    timer = null;
    setPlaying(false);
  }

  function setPlaying(on) {
    root.dataset.playing = on ? "true" : "false";
    playButton.setAttribute("aria-label", on ? "Pause (space)" : "Play (space)");
    playButton.title = on ? "Pause (space)" : "Play (space)";
    // SVG elements have no `hidden` property: set the attribute (the stylesheet hides [hidden]).
    playButton.querySelector('[data-icon="play"]').toggleAttribute("hidden", on);
    playButton.querySelector('[data-icon="pause"]').toggleAttribute("hidden", !on);
  }

  function toggle() { if (timer) pause(); else play(); }

  // ---------- Input ----------

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action]");
    if (!button || button.getAttribute("aria-disabled") === "true") return;
    var action = button.dataset.action;
    if (action === "play") { toggle(); return; }
    pause();
    if (action === "first") show(0);
    else if (action === "prev") show(index - 1);
    else if (action === "next") show(index + 1);
    else if (action === "last") show(last);
  });

  scrubber.addEventListener("input", function () {
    pause();
    show(parseInt(scrubber.value, 10));
  });

  speed.addEventListener("change", function () {
    if (timer) { window.clearTimeout(timer); timer = window.setTimeout(tick, delay()); }
  });

  var chartSvg = $("chart");
  if (chartSvg && chart) {
    chartSvg.addEventListener("click", function (event) {
      var box = chartSvg.getBoundingClientRect();
      var viewBox = chartSvg.viewBox.baseVal;
      var x = ((event.clientX - box.left) / box.width) * viewBox.width;
      var i = Math.round(((x - chart.left) / chart.width) * (chart.count - 1));
      pause();
      show(i);
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    var type = target && target.type;
    // Typing in a field, choosing in a list: those keys are not ours.
    if (tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable) return;
    if (tag === "INPUT" && type !== "range") return;
    // The scrubber moves itself on arrows, Home and End, and reports through "input".
    var onScrubber = target === scrubber;
    switch (event.key) {
      case "ArrowLeft":
        if (onScrubber) return;
        event.preventDefault(); pause(); show(index - 1); break;
      case "ArrowRight":
        if (onScrubber) return;
        event.preventDefault(); pause(); show(index + 1); break;
      case "Home":
        if (onScrubber) return;
        event.preventDefault(); pause(); show(0); break;
      case "End":
        if (onScrubber) return;
        event.preventDefault(); pause(); show(last); break;
      case " ":
      case "Spacebar":
        // Space on a button or link keeps its usual meaning (press it).
        if (tag === "BUTTON" || tag === "A") return;
        event.preventDefault(); toggle(); break;
      default:
        return;
    }
  });

  var start = readHash();
  show(start === null ? 0 : start, { hash: start !== null });
  root.dataset.ready = "true";
})();
