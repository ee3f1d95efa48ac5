// Brings the cited lines into view when the URL names a range without a #L anchor.
(function () {
  "use strict";
  var target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
  target = target || document.querySelector(".source-lines tr.cited");
  if (target) { target.scrollIntoView({ block: "center" }); }
})();
