/* Every signed-in page follows the user's stream (EventSource, /api/v1/stream/): a notice
   (an invitation, a rematch offer, a message, a move that leaves a decision to the user)
   redraws, without a reload, the counters the page shows: the header's unread
   notifications and messages, and where the page has them the lobby's lists (its tab
   title's "Your move" count with them) and the notification list. The server draws each
   part, in the reader's language: the page fetches itself (the lobby, the list) or, on any
   other page, the notification list for its header, and swaps in the parts it has.

   The stream takes up after the newest notice the page was drawn with (body's
   data-notices-after), and EventSource resumes by itself with Last-Event-ID; a user's
   tabs share one stream. Asked with ?moves=1, it also says (`event: moves`) how many games
   wait for the user's move whenever that changes, a notice or not (their own move in
   another tab, a clock's): every page's title leads with "(N) Your move · " while N > 0
   (body's data-your-moves; the game page titles its own game: title.js). It ends with
   `event: close`: `max_lifetime` or `server_stopping` (the browser comes back, resuming),
   `credentials_ended` (signed out: no coming back). The same event carries the unread
   notifications and messages: a badge drops when they were read elsewhere. Where there is no stream (a WSGI
   server answers 503, no EventSource) the page asks again every half minute while seen. */
(function () {
  "use strict";

  var HEADER = ["inbox-link", "messages-link"];
  var PAGE = ["my-games", "lobby-invitations", "inbox-entries", "home-welcome", "home-games"];
  var POLL_MS = 30000;
  var stream = null, stopped = false, polling = null, due = null, busy = false, again = false;

  function byId(id, root) { return (root || document).getElementById(id); }
  function pageParts() { return PAGE.filter(function (id) { return byId(id); }); }

  // The title without its "(N) Your move · " lead, if it has one.
  function bareTitle(title, words) {
    var lead = /^\(\d+\) /.exec(title);
    var rest = lead ? title.slice(lead[0].length) : "";
    return lead && rest.indexOf(words + " · ") === 0 ? rest.slice(words.length + 3) : title;
  }

  // `count` games wait for the user's move: the title says so (not the game page's, which
  // speaks of its own game). Whether it changed.
  function showMoves(count) {
    var body = document.body;
    if (isNaN(count) || !body.hasAttribute("data-your-moves")) { return false; }
    var changed = String(count) !== body.getAttribute("data-your-moves");
    body.setAttribute("data-your-moves", String(count));
    if (!byId("game")) {
      var words = body.getAttribute("data-your-move-words") || "";
      var bare = bareTitle(document.title, words);
      document.title = count > 0 ? "(" + count + ") " + words + " · " + bare : bare;
    }
    return changed;
  }

  // The header's badges stand at what the page was drawn with (body's data-unread and
  // data-unread-messages): the stream's counts differ when a notice or a message was read
  // elsewhere (another tab, the game's page) or came: the header is drawn again.
  function badgesStale(counts) {
    var body = document.body;
    return ["unread", "unread-messages"].some(function (name, n) {
      var now = counts[n];
      return typeof now === "number" && String(now) !== body.getAttribute("data-" + name);
    });
  }

  function movesHeard(count, counts) {
    if (counts && badgesStale(counts)) { soon(); }
    // A page with lists that show which game waits (the lobby's, home's) draws them again
    // and its title with them, so that the two never disagree.
    if (!pageParts().length) { showMoves(count); return; }
    if (String(count) !== document.body.getAttribute("data-your-moves")) { soon(); }
  }

  // A part holding the focus (a join form's entropy being typed) is left as it is: the
  // next notice brings it up to date.
  function swap(id, fresh) {
    var old = byId(id);
    if (!old || !fresh || old.contains(document.activeElement)) { return; }
    var kept = {};
    old.querySelectorAll("input[data-entropy]").forEach(function (input) {
      if (input.value && input.form) { kept[input.form.getAttribute("action")] = input.value; }
    });
    var node = document.importNode(fresh, true);
    node.querySelectorAll("input[data-entropy]").forEach(function (input) {
      var was = input.form && kept[input.form.getAttribute("action")];
      if (was) { input.value = was; }
    });
    old.replaceWith(node);
    if (window.htmx) { window.htmx.process(node); }
  }

  function redraw() {
    if (busy) { again = true; return; }
    var parts = pageParts(), inbox = byId("inbox-link");
    if (!inbox) { return; }
    // The lobby and the list draw themselves with the header; any other page takes the
    // header from the list, a light page.
    // (The lobby may stand at the address of a form it answered: it names its own.)
    var own = parts.length > 0;
    var url = own ? byId(parts[0]).getAttribute("data-drawn-at") || window.location.href
      : inbox.href;
    busy = true;
    window.fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (answer) {
        if (answer.redirected || answer.status === 401 || answer.status === 403) {
          stop();  // signed out: the sign-in page has no counters
          return null;
        }
        return answer.ok ? answer.text() : null;
      })
      .then(function (html) {
        if (html === null) { return; }
        var fresh = new window.DOMParser().parseFromString(html, "text/html");
        HEADER.concat(parts).forEach(function (id) { swap(id, byId(id, fresh)); });
        if (fresh.body && fresh.body.hasAttribute("data-your-moves")) {
          showMoves(parseInt(fresh.body.getAttribute("data-your-moves"), 10));
          ["data-unread", "data-unread-messages"].forEach(function (name) {
            document.body.setAttribute(name, fresh.body.getAttribute(name) || "0");
          });
        }
        document.dispatchEvent(new window.CustomEvent("conquest:swapped"));
      })
      .catch(function () { return null; })
      .then(function () {
        busy = false;
        if (again) { again = false; soon(); }
      });
  }

  function soon() {  // a burst of notices: one redraw
    if (due) { return; }
    due = window.setTimeout(function () { due = null; redraw(); }, 150);
  }

  // The user's tabs share one stream (a browser holds only six connections to a site over
  // HTTP/1.1, and the site counts streams per user): the tab holding the lock follows it
  // and tells the others on a BroadcastChannel; when it goes, another takes it up from the
  // newest notice any of them heard. Without these APIs each tab follows its own.
  var channel = null, letGo = null, newest = 0;

  function tell(news) { if (channel) { channel.postMessage(news); } }

  function release() {
    if (letGo) { letGo(); letGo = null; }
  }

  function stop() {
    stopped = true;
    if (stream) { stream.close(); stream = null; }
    if (polling) { window.clearInterval(polling); polling = null; }
    release();
  }

  function poll() {
    if (polling || stopped) { return; }
    polling = window.setInterval(function () {
      if (!document.hidden) { redraw(); }
    }, POLL_MS);
  }

  function heard(id) {
    var n = parseInt(id, 10);
    if (n > newest) { newest = n; }
  }

  function follow() {
    if (stopped) { release(); return; }
    if (!window.EventSource) { poll(); release(); return; }
    stream = new window.EventSource("/api/v1/stream/?moves=1" +
      (newest ? "&last_event_id=" + newest : ""));
    stream.addEventListener("notice", function (event) {
      heard(event.lastEventId);
      tell({ notice: newest });
      soon();
    });
    stream.addEventListener("moves", function (event) {
      var data = {};
      try { data = JSON.parse(event.data) || {}; } catch (e) { data = {}; }
      var count = typeof data.count === "number" ? data.count : NaN;
      var counts = [data.unread, data.messages];
      tell({ moves: count, counts: counts });
      movesHeard(count, counts);
    });
    stream.addEventListener("close", function (event) {
      var reason = null;
      try { reason = JSON.parse(event.data).reason; } catch (e) { reason = null; }
      if (reason === "credentials_ended") {  // signed out: no tab comes back
        tell({ stop: true });
        stop();
      }
    });
    stream.addEventListener("error", function () {
      // Refused (a WSGI server's 503, too many streams): EventSource gives up for good,
      // and so does this tab: it polls, and the next tab tries for itself. A dropped
      // connection EventSource retries by itself (readyState CONNECTING).
      if (stream && stream.readyState === window.EventSource.CLOSED) {
        stream = null;
        poll();
        release();
      }
    });
  }

  function share(user) {
    if (!window.BroadcastChannel || !(navigator.locks && navigator.locks.request)) {
      follow();
      return;
    }
    var name = "conquest-user-stream-" + user;
    channel = new window.BroadcastChannel(name);
    channel.addEventListener("message", function (event) {
      var news = event.data || {};
      if (news.stop) { stop(); return; }
      if (news.notice) { heard(news.notice); soon(); }
      if (typeof news.moves === "number") { movesHeard(news.moves, news.counts); }
    });
    navigator.locks.request(name, function () {
      if (stopped || polling) { return null; }
      return new Promise(function (resolve) { letGo = resolve; follow(); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    if (!body.hasAttribute("data-notices-after")) { return; }
    heard(body.getAttribute("data-notices-after"));
    share(body.getAttribute("data-user") || "");
  });
})();
