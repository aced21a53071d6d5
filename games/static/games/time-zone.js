// Only a default: the player sees and can change the zone before accepting.
(function () {
  var select = document.getElementById("id_time_zone");
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (select && zone && select.value === "UTC") {
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === zone) { select.value = zone; break; }
    }
  }
})();
