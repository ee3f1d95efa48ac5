// Shows how much of the zip has been sent while the upload form posts (htmx reports XHR progress).
(function () {
  "use strict";
  function parts(form) {
    var box = form.querySelector(".upload-progress");
    return box && { box: box, bar: box.querySelector("progress"), text: box.querySelector(".upload-percent") };
  }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.target.closest && event.target.closest("#upload-form");
    var p = form && parts(form);
    if (p) { p.box.hidden = false; p.bar.value = 0; p.text.textContent = "0%"; }
  });
  document.body.addEventListener("htmx:xhr:progress", function (event) {
    var form = event.target.closest && event.target.closest("#upload-form");
    var p = form && parts(form);
    if (!p || !event.detail.lengthComputable) { return; }
    var percent = Math.round((event.detail.loaded / event.detail.total) * 100);
    p.bar.value = percent;
    p.text.textContent = percent === 100 ? "100%, checking the archive…" : percent + "%";
  });
})();
