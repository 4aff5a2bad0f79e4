/* Table talk, progressively enhanced (the form works without this script): posts without
   leaving the page and fetches new lines every 10 s. It uses fetch(), not htmx, so that the
   game area's own htmx handlers (its live poll, its half-filled-form guard) never see it. */
(function () {
  "use strict";

  function box() { return document.getElementById("chat"); }

  function get(url, fragment) {
    return fetch(url, { credentials: "same-origin", headers: { "X-Chat-Fragment": fragment } });
  }

  function refreshLines() {
    var chat = box();
    var lines = document.getElementById("chat-lines");
    if (!chat || !lines || chat.getAttribute("data-polling") !== "1" || document.hidden) { return; }
    get(chat.getAttribute("data-url") + "?part=lines", "lines").then(function (answer) {
      return answer.ok ? answer.text() : null;
    }).then(function (html) {
      var now = document.getElementById("chat-lines");
      if (!html || !now) { return; }
      var holder = document.createElement("template");
      holder.innerHTML = html.trim();
      var fresh = holder.content.firstElementChild;
      // Replaced only when a line came or went, so that screen readers are not told again.
      if (fresh && fresh.getAttribute("data-stamp") !== now.getAttribute("data-stamp")) {
        now.replaceWith(fresh);
      }
    }).catch(function () { /* offline for a moment: the next round tries again */ });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("chat-form") || !window.fetch) { return; }
    event.preventDefault();
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = true; }
    fetch(form.action, {
      method: "POST", body: new FormData(form), credentials: "same-origin",
      headers: { "X-Chat-Fragment": "box" }
    }).then(function (answer) { return answer.text(); }).then(function (html) {
      var chat = box();
      if (!chat) { return; }
      chat.outerHTML = html;
      var text = document.getElementById("chat-text");
      if (text) { text.focus({ preventScroll: true }); }
    }).catch(function () { form.submit(); });
  });

  if (!window.conquestChat) {
    window.conquestChat = { refresh: refreshLines, timer: window.setInterval(refreshLines, 10000) };
  }
})();
