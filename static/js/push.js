/* The profile's "notifications in this browser": registers the service worker (/sw.js) and
   subscribes this browser to web push, or unsubscribes it (notifications.push_views). */
(function () {
  "use strict";
  var box = document.getElementById("push");
  var status = box && box.querySelector(".push-state");
  if (!status) { return; }  // no profile here, or this site sends no push
  var on = box.querySelector("[data-push=on]");
  var off = box.querySelector("[data-push=off]");
  var url = box.getAttribute("data-url");
  var registration = null;

  function say(key) { status.textContent = box.getAttribute("data-label-" + key) || ""; }

  function show(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    say(subscribed ? "on" : "off");
  }

  function serverKey() {
    var text = box.getAttribute("data-key").replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(text + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  function tell(method, body) {
    return window.fetch(url, {
      method: method, credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRFToken": box.getAttribute("data-csrf") }
    }).then(function (response) {
      if (!response.ok && response.status !== 404) { throw new Error(String(response.status)); }
      return response;
    });
  }

  if (!box.getAttribute("data-key") || !("serviceWorker" in navigator) ||
      !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }

  on.addEventListener("click", function () {
    on.disabled = true;
    window.Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say("denied"); return null; }
      return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey() })
        .then(function (subscription) {
          return tell("POST", subscription.toJSON()).then(function () { show(true); });
        });
    }).catch(function () { say("failed"); }).then(function () { on.disabled = false; });
  });

  off.addEventListener("click", function () {
    off.disabled = true;
    registration.pushManager.getSubscription().then(function (subscription) {
      if (!subscription) { return null; }
      return tell("DELETE", { endpoint: subscription.endpoint }).then(function () {
        return subscription.unsubscribe();
      });
    }).then(function () { show(false); }).catch(function () { say("failed"); })
      .then(function () { off.disabled = false; });
  });

  navigator.serviceWorker.register(box.getAttribute("data-worker"), { scope: "/" })
    .then(function (found) {
      registration = found;
      return found.pushManager.getSubscription();
    }).then(function (subscription) {
      on.hidden = false;
      if (!subscription) { show(false); return; }
      // Known to the browser: tell the site again (it forgets a browser its push service
      // called gone, or one another account subscribed since).
      return tell("POST", subscription.toJSON()).then(function () { show(true); });
    }).catch(function () { say("unsupported"); });
})();
