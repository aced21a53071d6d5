// Keeps an open game page on the game's current version (games/web/follow.py):
// asks the page's "version" address every few seconds with the version the
// page was made from, and hears 304 until the game moves. Never while the tab
// is hidden; at once when it is shown again. When the game has moved the page
// is reloaded, unless the player is filling in a form: then the notice
// (game/_follow.html, in the page's language) goes above that form and what
// they typed stays. Without this script the page is reloaded by hand.
(function () {
  var script = document.currentScript;
  if (!script || !window.fetch || !document.getElementById) { return; }
  var version = script.dataset.version;
  var url = script.dataset.url;
  if (!version || !url) { return; }
  var seconds = Number(script.dataset.seconds) || 5;
  var timer = null;
  var asking = false;
  var stopped = false;

  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") { return field.checked !== field.defaultChecked; }
    if (field.tagName === "SELECT" && !field.multiple) {
      // With no option marked, the first one is shown, and not a change.
      var shown = 0;
      for (var j = 0; j < field.options.length; j++) {
        if (field.options[j].defaultSelected) { shown = j; break; }
      }
      return field.selectedIndex !== shown;
    }
    if (field.tagName === "SELECT") {
      for (var i = 0; i < field.options.length; i++) {
        if (field.options[i].selected !== field.options[i].defaultSelected) { return true; }
      }
      return false;
    }
    return field.value !== field.defaultValue;
  }

  // The field the player is busy with: the focused one, else one they changed.
  function fieldInUse() {
    var skip = /^(hidden|submit|button|reset|image)$/;
    var active = document.activeElement;
    if (active && active.form && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) && !skip.test(active.type)) {
      return active;
    }
    var fields = document.querySelectorAll("main input, main select, main textarea");
    for (var i = 0; i < fields.length; i++) {
      if (!skip.test(fields[i].type) && changed(fields[i])) { return fields[i]; }
    }
    return null;
  }

  function moved() {
    var field = fieldInUse();
    if (!field) {
      stopped = true;
      window.location.reload();
      return;
    }
    stopped = true;
    var notice = document.getElementById("stale-notice");
    var form = field.form || field;
    var box = form.closest("section") || form;
    if (notice) {
      box.classList.add("stale");
      form.parentNode.insertBefore(notice, form);
      notice.hidden = false;
    }
  }

  function later() {
    window.clearTimeout(timer);
    timer = null;
    if (!stopped && !document.hidden) { timer = window.setTimeout(ask, seconds * 1000); }
  }

  function ask() {
    timer = null;
    if (stopped || asking || document.hidden) { return; }
    asking = true;
    // An If-None-Match of our own: the browser's cache stays out of it and
    // a 304 reaches this script.
    fetch(url, { headers: { "If-None-Match": '"' + version + '"' }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (response.status !== 200) { stopped = true; return null; }
        return response.text();
      })
      .then(function (text) {
        asking = false;
        if (!stopped && text !== null && text.trim() !== version) { moved(); }
        later();
      }, function () {
        // Offline for a moment: ask again at the next turn.
        asking = false;
        later();
      });
  }

  // Leaving the page (a form sent, a link followed, an address typed): a
  // reload now would cancel that navigation, a decision's POST included.
  function leaving() {
    stopped = true;
    window.clearTimeout(timer);
  }
  document.addEventListener("submit", leaving);
  window.addEventListener("beforeunload", leaving);

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      window.clearTimeout(timer);
      timer = null;
    } else if (!asking) {
      ask();
    }
  });
  later();
})();
