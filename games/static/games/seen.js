// Tells the moderators' timeline the page was shown in a browser; a POST,
// so that fetching the link (as mail scanners do) records nothing.
(function () {
  var url = document.currentScript && document.currentScript.dataset.url;
  if (url && navigator.sendBeacon) { navigator.sendBeacon(url); }
})();
