/* Seeds by hand: the manage page's list of handles becomes a list to drag into order, or to move with
   the keyboard (each entry's "up" and "down" buttons; Alt+ArrowUp/ArrowDown on a focused entry).
   Without JavaScript the textarea stays, one handle a line: this only rewrites its value. */
(function () {
  "use strict";
  var form = document.querySelector("[data-seed-order]");
  if (!form) return;
  var area = form.querySelector("textarea[name=order]");
  if (!area) return;
  var handles = area.value.split(/\r?\n/).map(function (h) { return h.trim(); }).filter(Boolean);
  if (handles.length < 2) return;

  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("aria-live", "polite");
  var list = document.createElement("ol");
  list.className = "seed-order";
  list.setAttribute("data-role", "seed-order");
  list.setAttribute("aria-label", "Entrants, best first: drag, or use the buttons, to reorder");

  function sync() {
    var order = [];
    list.querySelectorAll("li").forEach(function (item, index) {
      order.push(item.dataset.handle);
      item.querySelector(".seed-order__seed").textContent = String(index + 1);
    });
    area.value = order.join("\n");
  }

  function move(item, by) {
    var target = by < 0 ? item.previousElementSibling : item.nextElementSibling;
    if (!target) return;
    if (by < 0) list.insertBefore(item, target);
    else list.insertBefore(target, item);
    sync();
    var seed = Array.prototype.indexOf.call(list.children, item) + 1;
    status.textContent = item.dataset.handle + " is now seed " + seed + ".";
  }

  function button(label, text, by, item) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button button--ghost button--small";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", function () { move(item, by); b.focus(); });
    return b;
  }

  var dragged = null;
  handles.forEach(function (handle) {
    var item = document.createElement("li");
    item.className = "seed-order__item";
    item.draggable = true;
    item.tabIndex = 0;
    item.dataset.handle = handle;
    var seed = document.createElement("span");
    seed.className = "seed-order__seed num";
    var name = document.createElement("span");
    name.className = "seed-order__name";
    name.textContent = handle;
    item.append(seed, name, button("Move " + handle + " up", "↑", -1, item), button("Move " + handle + " down", "↓", 1, item));
    item.addEventListener("keydown", function (event) {
      if (event.target !== item || !event.altKey) return;
      if (event.key === "ArrowUp" || event.key === "ArrowDown") {
        event.preventDefault();
        move(item, event.key === "ArrowUp" ? -1 : 1);
        item.focus();
      }
    });
    item.addEventListener("dragstart", function (event) {
      dragged = item;
      item.classList.add("is-dragging");
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", handle);
    });
    item.addEventListener("dragend", function () {
      item.classList.remove("is-dragging");
      dragged = null;
      sync();
    });
    item.addEventListener("dragover", function (event) {
      if (!dragged || dragged === item) return;
      event.preventDefault();
      var box = item.getBoundingClientRect();
      list.insertBefore(dragged, event.clientY > box.top + box.height / 2 ? item.nextSibling : item);
    });
    item.addEventListener("drop", function (event) { event.preventDefault(); sync(); });
    list.appendChild(item);
  });

  var field = area.closest(".field") || area;
  field.hidden = true;
  field.parentNode.insertBefore(list, field);
  field.parentNode.insertBefore(status, field);
  sync();
})();
