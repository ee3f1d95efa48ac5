// Shows how much of the zip has been sent while the upload form posts (htmx reports XHR progress).
(function () {
  "use strict";
  function parts(form) {
    var box = form.querySelector(".upload-progress");
    return box && { box: box, bar: box.querySelector("progress"), text: box.querySelector(".upload-percent") };
  }
  function showError(form, message) {
    var error = form.querySelector("#archive-error");
    if (!error) {
      error = document.createElement("p");
      error.id = "archive-error";
      error.className = "error";
      error.setAttribute("role", "alert");
      form.querySelector("#archive-help").after(error);
    }
    error.textContent = message;
    var p = parts(form);
    if (p) { p.box.hidden = true; }
  }
  function megabytes(bytes) { return (bytes / 1048576).toFixed(1) + " MB"; }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.target.closest && event.target.closest("#upload-form");
    if (!form) { return; }
    // The server refuses a larger body while it streams; saying so here saves sending it.
    var input = form.querySelector("input[type=file]");
    var limit = Number(form.dataset.maxBytes || 0);
    var file = input && input.files && input.files[0];
    if (file && limit && file.size > limit) {
      event.preventDefault();
      showError(form, "The file is " + megabytes(file.size) + "; the limit is " + megabytes(limit) + ".");
      return;
    }
    var p = parts(form);
    if (p) { p.box.hidden = false; p.bar.value = 0; p.text.textContent = "0%"; }
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    var form = event.target.closest && event.target.closest("#upload-form");
    if (form && event.detail.xhr.status === 413) {
      showError(form, new DOMParser().parseFromString(event.detail.xhr.responseText, "text/html").body.textContent.trim());
    }
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
