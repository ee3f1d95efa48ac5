// Brings the cited lines into view when the URL names a range without a #L anchor,
// or the file's end when the range asked for starts past it.
(function () {
  "use strict";
  var target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
  target = target || document.querySelector(".source-lines tr.cited");
  if (!target && document.querySelector('.source-code[data-show="end"]')) {
    target = document.querySelector(".source-lines tr:last-child");
  }
  if (target) { target.scrollIntoView({ block: "center" }); }
})();
