/* The replay viewer: draws one step of a verified (or rejected) game from the
   engine's steps in their compact form (`speed-steps/1`, replays/compact.py).

   The page embeds the first chunk of steps (#replay-data, by json_script); the
   others are fetched from the compact steps endpoint when the viewer reaches
   them, so a long log's page stays small and each fetch is one bounded chunk.
   A chunk is decoded once into whole tables, and every step is drawn from its
   own table (never by applying differences on screen), so jumping anywhere is
   as cheap as stepping.

   Plain script, no framework, no inline code (the site's Content-Security-Policy). */
(function () {
  "use strict";

  var root = document.querySelector("[data-replay]");
  var dataNode = document.getElementById("replay-data");
  if (!root || !dataNode) return;

  var data = JSON.parse(dataNode.textContent);
  var total = data.total || 0;
  if (!total) return;
  var players = data.players || [];
  var last = total - 1;
  var failStep = data.failStep;
  var chunkSize = data.chunkSize;
  var urlNode = root.querySelector('[data-role="steps-url"]');
  var stepsUrl = urlNode ? urlNode.dataset.url : null;

  // Row kinds of the compact form, and how many integers of move follow each.
  var PLAY = 1, COLLISION = 2, STALL = 3, RESHUFFLE = 4, SPEED = 5;
  var MOVE_LENGTH = { 0: 0, 1: 3, 2: 3, 3: 0, 4: 0, 5: 1, "-1": 0 };

  function $(role) { return root.querySelector('[data-role="' + role + '"]'); }
  var el = window.SpeedCards.el, plural = window.SpeedCards.plural;
  var cardLabel = window.SpeedCards.label;
  function cardNode(card) { return window.SpeedCards.face(card, true); }

  // A face-down pile: one card back with the count on it, or an empty outline.
  // A Spit stock pile: its top card face up on the cards face down under it.
  function stockPile(count, top, label) {
    var pile = el("div", "pile");
    pile.dataset.role = "stock";
    pile.dataset.count = String(count);
    var stack = el("div", "pile__stack" + (count > 1 ? " pile__stack--deep" : ""));
    if (top) {
      stack.appendChild(cardNode(top));
    } else {
      var empty = el("span", "pcard pcard--empty");
      empty.setAttribute("role", "img");
      empty.setAttribute("aria-label", label + ": empty");
      stack.appendChild(empty);
    }
    var badge = el("span", "pile__count", String(count));
    badge.setAttribute("aria-label", label + ": " + plural(count, "card"));
    stack.appendChild(badge);
    pile.appendChild(stack);
    pile.appendChild(el("span", "pile__label", label));
    return pile;
  }

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

  // `m:ss.s` exactly as the engine writes it (Python's `f"{millis / 1000:04.1f}"`), because each
  // event's words end with it and the compact form does not send that part. toFixed rounds the
  // same double the same way except at an exact half (x.x25 s, x.x75 s), where Python rounds to even.
  function clock(t) {
    t = Math.max(t || 0, 0);
    var minutes = Math.floor(t / 60000);
    var millis = t % 60000;
    var seconds;
    if (millis % 500 === 250) {
      var tenths = Math.floor(millis / 100);
      if (tenths % 2) tenths += 1;
      seconds = (tenths / 10).toFixed(1);
    } else {
      seconds = (millis / 1000).toFixed(1);
    }
    return minutes + ":" + (seconds.length < 4 ? "0" : "") + seconds;
  }

  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }

  // ---------- The compact steps: one chunk into whole tables ----------

  function decodeChunk(chunk) {
    // The layout of the fixed vector (replays/compact.py): draws, piles, tops, stacks, and in the
    // extension's games the stock piles and their tops per seat, and each seat's cards to play.
    var S = chunk.seats, P = chunk.piles, K = chunk.stacks;
    var D = chunk.draws === undefined ? S : chunk.draws, N = chunk.stock || 0, L = chunk.left ? S : 0;
    var F = D + 2 * P + K + 2 * S * N + L;
    var names = chunk.cards;
    var fixed = [], hands = [], t = 0, at, seat;
    for (at = 0; at < F; at++) fixed.push(0);
    for (seat = 0; seat < S; seat++) hands.push([]);
    if (chunk.base) {
      t = chunk.base[0];
      fixed = chunk.base.slice(1, 1 + F);
      at = 1 + F;
      for (seat = 0; seat < S; seat++) {
        var n = chunk.base[at];
        hands[seat] = chunk.base.slice(at + 1, at + 1 + n);
        at += 1 + n;
      }
    }
    function name(id) { return id >= 0 ? names[id] : null; }
    return chunk.rows.map(function (row, offset) {
      t = !chunk.base && offset === 0 ? row[0] : t + row[0];
      var kind = row[2];
      var move = { kind: kind, seat: -1, pile: -1, card: null };
      if (kind === PLAY || kind === COLLISION) { move.seat = row[3]; move.pile = row[4]; move.card = name(row[5]); }
      if (kind === SPEED) move.seat = row[3];
      var changed = {}, handChanged = {};
      fixed = fixed.slice();
      hands = hands.slice();
      var i = 3 + (MOVE_LENGTH[kind] || 0);
      while (i < row.length) {
        var position = row[i];
        if (position < F) {
          fixed[position] = row[i + 1];
          changed[position] = true;
          i += 2;
        } else {
          var count = row[i + 1];
          hands[position - F] = row.slice(i + 2, i + 2 + count);
          handChanged[position - F] = true;
          i += 2 + count;
        }
      }
      var text = row[1];
      var draws = fixed.slice(0, D);
      var stockAt = D + 2 * P + K;
      var stock = [];
      var stockTops = [];
      for (var s2 = 0; s2 < S && N; s2++) {
        stock.push(fixed.slice(stockAt + s2 * N, stockAt + (s2 + 1) * N));
        stockTops.push(fixed.slice(stockAt + S * N + s2 * N, stockAt + S * N + (s2 + 1) * N).map(name));
      }
      var handCards = hands.map(function (hand) { return hand.map(name); });
      var handCounts = handCards.map(function (hand) { return hand.length; });
      function changedIn(from, length) {
        var out = [];
        for (var j = 0; j < length; j++) out.push(!!changed[from + j]);
        return out;
      }
      return {
        t: t,
        description: text >= 0 ? chunk.texts[text] + ", " + clock(t) : chunk.texts[-text - 1],
        hand_cards: handCards,
        hands: handCounts,
        draws: draws,
        piles: fixed.slice(D, D + P),
        pile_tops: fixed.slice(D + P, D + 2 * P).map(name),
        stacks: fixed.slice(D + 2 * P, D + 2 * P + K),
        stock: stock,
        stock_tops: stockTops,
        cards_left: L ? fixed.slice(F - L, F) : handCounts.map(function (count, s) { return count + draws[s]; }),
        move: move,
        changed: {
          draws: changedIn(0, D),
          piles: changedIn(D, P),
          tops: changedIn(D + P, P),
          stacks: changedIn(D + 2 * P, K),
          hands: handCards.map(function (_, s) { return !!handChanged[s]; }),
          stock: stock.map(function (_, s) {
            return changedIn(stockAt + s * N, N).map(function (c, k) { return c || !!changed[stockAt + S * N + s * N + k]; });
          }),
        },
      };
    });
  }

  var chunks = {};
  var waiting = {};
  chunks[0] = decodeChunk(data.chunk);

  function loadedCount() { return Object.keys(chunks).length; }

  // Runs `done` once chunk `k` is decoded: at once when it is, else after fetching it.
  function withChunk(k, done) {
    if (chunks[k]) { done(); return; }
    if (waiting[k]) { waiting[k].push(done); return; }
    waiting[k] = [done];
    root.dataset.loading = "true";
    fetch(stepsUrl + "?from=" + k * chunkSize + "&count=" + chunkSize, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (chunk) {
        chunks[k] = decodeChunk(chunk);
        var callbacks = waiting[k];
        delete waiting[k];
        root.dataset.chunks = String(loadedCount());
        if (!Object.keys(waiting).length) root.dataset.loading = "false";
        callbacks.forEach(function (callback) { callback(); });
      })
      .catch(function (error) {
        delete waiting[k];
        root.dataset.loading = "false";
        pause();
        description.textContent = "These steps could not be loaded (" + error.message + "): try again in a moment.";
      });
  }

  function stepAt(i) {
    var part = chunks[Math.floor(i / chunkSize)];
    return part ? part[i % chunkSize] : null;
  }

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
  var transcriptMore = $("transcript-more");
  var chart = data.chart;
  var timeLimit = data.timeLimit || null;
  var scrubberLimit = $("scrubber-limit");

  // The limit's mark over the range's track: the thumb's half-width insets both ends of the track.
  function placeScrubberLimit() {
    if (!scrubberLimit || !timeLimit || timeLimit.position === null || !last) return;
    var width = scrubber.getBoundingClientRect().width;
    var thumb = 16;
    scrubberLimit.style.left = (thumb / 2 + (width - thumb) * (timeLimit.position / last)) + "px";
  }

  // A seat's cards played by step `index` within the limit: the steps of its plays, up to the limit, in order.
  function playedBy(seat, index) {
    var steps = timeLimit.playedAt ? timeLimit.playedAt[seat] : null;
    if (!steps) return timeLimit.played[seat];
    var count = 0;
    while (count < steps.length && steps[count] <= index) count++;
    return count;
  }

  function timedText(step, seat) {
    var over = step.t > timeLimit.ms;
    return plural(playedBy(seat, index), "card") + (over ? " played by the limit (" : " played so far (limit ") + clock(timeLimit.ms) + ")";
  }

  // The side panel's counts follow the step too.
  function drawTimedPanel(step) {
    if (!timeLimit || !timeLimit.played) return;
    root.querySelectorAll('.timed-list [data-role="timed-played"]').forEach(function (node, seat) {
      node.textContent = String(playedBy(seat, index));
    });
    var when = $("timed-when");
    if (when) when.textContent = step.t > timeLimit.ms ? "cards played by the limit" : "cards played by this step";
  }

  // Seats split around the centre: the later half across the table, the first half nearest the viewer.
  var half = Math.ceil(players.length / 2);
  var topSeats = [];
  var bottomSeats = [];
  players.forEach(function (_, seat) { (seat >= half ? topSeats : bottomSeats).push(seat); });
  if (players.length === 2) { topSeats = [1]; bottomSeats = [0]; }
  // Round the table in seat order: left to right along the near side, right to left along the far side.
  topSeats.reverse();

  function mark(node, cls) {
    node.classList.add(cls);
    node.dataset.highlight = cls.replace("is-", "");
  }

  function drawSeat(step, seat) {
    var move = step.move;
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
    // A timed match: the cards this seat has played by this step, counted up to the limit (its score).
    if (timeLimit && timeLimit.played) {
      var timed = el("p", "seat__timed", timedText(step, seat));
      timed.dataset.role = "timed-played";
      box.appendChild(timed);
    }

    // A team game has one draw pile per team (seats 0 and 2 against 1 and 3 in the preset).
    var shared = step.draws.length !== step.hands.length;
    var tableau = step.stock.length > 0;  // Spit: the face-down pile is the seat's spit cards
    var mine = (move.kind === PLAY || move.kind === COLLISION) && move.seat === seat;
    var drawLabel = shared ? "Team draw pile" : tableau ? "Spit cards" : "Draw pile";
    var draw = faceDownPile(shared ? step.draws[seat % step.draws.length] : step.draws[seat], drawLabel, "draw");
    // A stall in California Speed flips each draw pile's top card onto the centre.
    if ((move.kind === STALL || move.kind === RESHUFFLE) && step.changed.draws[seat]) mark(draw, "is-source");
    box.appendChild(draw);
    if (tableau) {
      var piles = el("div", "stock");
      piles.dataset.role = "stock-piles";
      step.stock[seat].forEach(function (count, k) {
        var pile = stockPile(count, step.stock_tops[seat][k], "Stock " + (k + 1));
        // The pile a play came from (a Spit play names it with `from`): its count or top changed.
        if (mine && step.changed.stock[seat][k]) mark(pile, "is-source");
        piles.appendChild(pile);
      });
      box.appendChild(piles);
    }
    var hand = el("div", "hand");
    hand.dataset.role = "hand";
    hand.setAttribute("aria-label", players[seat] + "'s hand, " + plural(step.hand_cards[seat].length, "card"));
    hand.setAttribute("role", "list");
    if (mine) mark(hand, "is-source");
    if (!step.hand_cards[seat].length) hand.appendChild(el("span", "hand__empty", "No cards in hand"));
    var bounced = false;
    step.hand_cards[seat].forEach(function (card) {
      var node = cardNode(card);
      // A collision moves nothing: its card goes back to the hand it came from; show which.
      if (mine && move.kind === COLLISION && !bounced && card === move.card) {
        mark(node, "is-bounced");
        bounced = true;
      }
      var item = el("span");
      item.setAttribute("role", "listitem");
      item.appendChild(node);
      hand.appendChild(item);
    });
    box.appendChild(hand);
    return box;
  }

  function drawCentre(step, forward) {
    var move = step.move;
    var flips = move.kind === STALL || move.kind === RESHUFFLE;
    centre.textContent = "";
    step.piles.forEach(function (count, pile) {
      var group = el("div", "centre__group");
      if (step.stacks.length > pile) {
        var stack = faceDownPile(step.stacks[pile], "Stack " + pile, "stack");
        if (flips && step.changed.stacks[pile]) mark(stack, "is-source");
        group.appendChild(stack);
      }
      var box = el("div", "pile pile--centre");
      box.dataset.role = "pile";
      box.dataset.pile = String(pile);
      box.dataset.count = String(count);
      var holder = el("div", "pile__stack");
      var top = step.pile_tops[pile];
      var card;
      if (top) {
        card = cardNode(top);
        card.setAttribute("aria-label", "Pile " + (pile + 1) + ": " + cardLabel(top) + " on top, " + plural(count, "card"));
      } else {
        card = el("span", "pcard pcard--empty");
        card.setAttribute("role", "img");
        card.setAttribute("aria-label", "Pile " + (pile + 1) + ": empty");
      }
      var played = move.kind === PLAY && move.pile === pile;
      var flipped = flips && (step.changed.tops[pile] || step.changed.piles[pile]);
      if (played || flipped) {
        mark(box, "is-target");
        if (top) {
          mark(card, "is-moved");
          if (forward) card.classList.add("pcard--new");
        }
      }
      if (move.kind === COLLISION && move.pile === pile) mark(box, "is-target");
      holder.appendChild(card);
      var badge = el("span", "pile__count", String(count));
      badge.setAttribute("aria-hidden", "true");
      holder.appendChild(badge);
      box.appendChild(holder);
      box.appendChild(el("span", "pile__label", "Pile " + (pile + 1)));  // people count from 1
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

  function drawCounts(step) {
    countsBody.textContent = "";
    var drawPerSeat = step.draws.length === players.length;
    players.forEach(function (name, seat) {
      countsBody.appendChild(countRow(name + " · hand", step.hands[seat]));
      if (drawPerSeat) countsBody.appendChild(countRow(name + (step.stock.length ? " · spit cards" : " · draw pile"), step.draws[seat]));
      if (step.stock.length) {
        countsBody.appendChild(countRow(name + " · stock piles (" + step.stock[seat].join(" + ") + ")", sum(step.stock[seat])));
      }
    });
    if (!drawPerSeat) {  // one draw pile per team in a team game
      step.draws.forEach(function (count, team) { countsBody.appendChild(countRow("Team " + (team + 1) + " · draw pile", count)); });
    }
    countsBody.appendChild(countRow("Centre piles (" + step.piles.join(" + ") + ")", sum(step.piles)));
    if (step.stacks.length) {
      countsBody.appendChild(countRow("Replacement stacks (" + step.stacks.join(" + ") + ")", sum(step.stacks)));
    }
    // Count every place of the table at this step against the ruleset's pack: the check means something.
    var counted = sum(step.hands) + sum(step.draws) + sum(step.piles) + sum(step.stacks) +
      step.stock.reduce(function (total, piles) { return total + sum(piles); }, 0);
    totalNode.textContent = String(counted);
    var ok = counted === data.pack;
    packCheck.textContent = "";
    var markNode = el("span", ok ? "ok" : "bad", data.pack + (ok ? " ✓" : " ✗"));
    markNode.dataset.role = "pack";
    markNode.setAttribute("aria-label", ok ? "equals the pack of " + data.pack : "does not equal the pack of " + data.pack);
    packCheck.appendChild(markNode);
  }

  function drawChart(i, step) {
    if (!chart || !marker) return;
    var x = chart.count > 1 ? chart.left + (chart.width * i) / (chart.count - 1) : chart.left;
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

  // ---------- The event list: the lines of the chunk being shown ----------

  var transcriptChunk = 0; // the server drew the first chunk's lines

  function drawTranscriptChunk(k) {
    var part = chunks[k];
    var first = k * chunkSize;
    transcript.textContent = "";
    transcript.setAttribute("start", String(first));
    part.forEach(function (step, offset) {
      var i = first + offset;
      var li = el("li");
      li.id = "replay-step-" + i;
      var failing = i === failStep && data.verdict.event !== null;
      if (failing) li.className = "is-fail";
      var link = el("a", null, step.description);
      link.href = "#step=" + i;
      li.appendChild(link);
      transcript.appendChild(li);
    });
    if (first + part.length - 1 === last && failStep !== null && failStep !== undefined && data.verdict.event !== null) {
      var fail = el("li", "is-fail");
      fail.value = last + 1;
      fail.dataset.role = "fail-line";
      fail.appendChild(el("span", null, "Event " + data.verdict.event + ": " + data.verdict.code + " (rejected)"));
      transcript.appendChild(fail);
    }
    if (transcriptMore) {
      transcriptMore.textContent = "Steps " + first + " to " + (first + part.length - 1) + " of " + last + ": the list follows the replay.";
    }
    transcriptChunk = k;
    currentItem = null;
  }

  var currentItem = null;
  function drawTranscript(i) {
    if (!transcript) return;
    var k = Math.floor(i / chunkSize);
    if (k !== transcriptChunk) drawTranscriptChunk(k);
    if (currentItem) currentItem.classList.remove("is-current");
    transcript.querySelectorAll('[aria-current="step"]').forEach(function (a) { a.removeAttribute("aria-current"); });
    currentItem = document.getElementById("replay-step-" + i);
    if (!currentItem) return;
    currentItem.classList.add("is-current");
    var link = currentItem.querySelector("a");
    if (link) link.setAttribute("aria-current", "step");
    // Keep the current line visible inside the list, moving only the list: the page stays where it is.
    var top = currentItem.offsetTop - transcript.offsetTop;
    if (top < transcript.scrollTop || top > transcript.scrollTop + transcript.clientHeight - currentItem.offsetHeight) {
      transcript.scrollTop = Math.max(top - transcript.clientHeight / 2, 0);
    }
  }

  // ---------- Moving: any step, once its chunk is here ----------

  var index = -1;
  var wanted = 0;

  function clamp(i) { return Math.max(0, Math.min(last, i | 0)); }

  function draw(target, options) {
    var forward = index >= 0 && target === index + 1;
    index = target;
    var step = stepAt(index);

    seatsTop.textContent = "";
    seatsBottom.textContent = "";
    topSeats.forEach(function (seat) { seatsTop.appendChild(drawSeat(step, seat)); });
    bottomSeats.forEach(function (seat) { seatsBottom.appendChild(drawSeat(step, seat)); });
    drawCentre(step, forward);
    drawCounts(step);
    drawTimedPanel(step);
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
    var over = !!timeLimit && step.t > timeLimit.ms;
    clockNode.textContent = clock(step.t) + (over ? " · past the limit" : "");
    clockNode.classList.toggle("is-over", over);
    scrubber.value = String(index);
    scrubber.setAttribute("aria-valuetext", "Step " + index + " of " + last + ": " + step.description);

    setDisabled("first", index === 0);
    setDisabled("prev", index === 0);
    setDisabled("next", index === last);
    setDisabled("last", index === last);

    if (!options || options.hash !== false) writeHash(index);
    root.dataset.step = String(index);
  }

  // Shows step `target` (clamped), at once when its chunk is here, else once fetched; `then` runs after.
  function show(target, options, then) {
    target = clamp(target);
    wanted = target;
    var k = Math.floor(target / chunkSize);
    withChunk(k, function () {
      if (wanted !== target) return; // a later move overtook this one while it loaded
      draw(target, options);
      // Near the end of a chunk, fetch the next one so stepping or playing on does not wait.
      if (k * chunkSize + chunkSize <= last && target % chunkSize >= chunkSize * 0.75) withChunk(k + 1, function () {});
      if (then) then();
    });
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
    if (i === null) return;
    pause();
    var target = clamp(i);
    // A step out of range opens the nearest one, and the address says which.
    if (target !== i) writeHash(target);
    if (target !== index) show(target, { hash: false });
  });

  // ---------- Playback ----------

  var timer = null;
  var playing = false;
  var speed = $("speed");
  var playButton = root.querySelector('[data-action="play"]');

  function delay() {
    if (speed.value === "clock") {
      // Real time between events, but never a long wait for a long think, nor a flicker.
      var here = stepAt(index);
      var next = stepAt(Math.min(index + 1, last));
      var gap = here && next ? next.t - here.t : 500;
      return Math.min(Math.max(gap, 120), 2500);
    }
    return 1000 / parseFloat(speed.value);
  }

  function schedule() {
    timer = window.setTimeout(tick, delay());
  }

  function tick() {
    timer = null;
    if (!playing) return;
    if (index >= last) { pause(); return; }
    show(index + 1, null, function () {
      if (!playing) return;
      if (index >= last) pause();
      else schedule();
    });
  }

  function play() {
    if (playing) return;
    setPlaying(true);
    if (index >= last) show(0, null, schedule);
    else schedule();
  }

  function pause() {
    if (timer) window.clearTimeout(timer);
    timer = null;
    setPlaying(false);
  }

  function setPlaying(on) {
    playing = on;
    root.dataset.playing = on ? "true" : "false";
    playButton.setAttribute("aria-label", on ? "Pause (space)" : "Play (space)");
    playButton.title = on ? "Pause (space)" : "Play (space)";
    // SVG elements have no `hidden` property: set the attribute (the stylesheet hides [hidden]).
    playButton.querySelector('[data-icon="play"]').toggleAttribute("hidden", on);
    playButton.querySelector('[data-icon="pause"]').toggleAttribute("hidden", !on);
  }

  function toggle() { if (playing) pause(); else play(); }

  // ---------- Input ----------

  root.addEventListener("click", function (event) {
    // A line of the event list moves the viewer there and nothing else: no jump to an anchor,
    // so the table stays where the reader has it.
    var line = event.target.closest('[data-role="transcript"] a[href^="#step="]');
    if (line) {
      event.preventDefault();
      pause();
      show(parseInt(line.getAttribute("href").slice(6), 10));
      return;
    }
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
    if (timer) { window.clearTimeout(timer); schedule(); }
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

  // Keys typed into a field or a list are not ours; everywhere else they drive the replay.
  function typing(target) {
    var tag = target && target.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return true;
    return tag === "INPUT" && target.type !== "range";
  }

  function isSpace(event) { return event.key === " " || event.key === "Spacebar"; }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (typing(target)) return;
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
        // Space plays or pauses wherever the focus is, a button or a link included (Enter still presses them).
        event.preventDefault();
        if (!event.repeat) toggle();
        break;
      default:
        return;
    }
  });

  // A focused button clicks itself when Space comes back up: that press was play or pause.
  document.addEventListener("keyup", function (event) {
    if (isSpace(event) && !typing(event.target)) event.preventDefault();
  });

  placeScrubberLimit();
  window.addEventListener("resize", placeScrubberLimit);

  var start = readHash();
  show(start === null ? 0 : start, { hash: start !== null }, function () {
    root.dataset.ready = "true";
  });
})();
