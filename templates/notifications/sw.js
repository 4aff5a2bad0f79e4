/* Conquest's service worker: shows a web push (notifications.push) and opens its game on a
   click. Served from /sw.js (notifications.push_views) so that its scope is the site. */
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function sameSite(url) {
  try {
    var target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (e) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" };
  }
  var options = {
    body: data.body || "",
    icon: "{{ icon }}",
    badge: "{{ badge }}",
    data: { url: sameSite(data.url) }
  };
  if (data.tag) { options.tag = data.tag; options.renotify = true; }
  event.waitUntil(self.registration.showNotification(data.title || "Conquest", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url && "focus" in windows[i]) { return windows[i].focus(); }
      }
      return self.clients.openWindow(url);
    }));
});
