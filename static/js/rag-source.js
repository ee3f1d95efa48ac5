// The source view: brings the cited lines into view when the URL names a range
// without a #L anchor (or the file's end when the range starts past it); a line
// number selects its line and Shift extends the selection to a range, the
// address following it (?lines=a-b#La) so it can be shared; copy the file or
// the link; back to the chat a citation was followed from.
(function () {
  "use strict";
  var target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
  target = target || document.querySelector(".source-lines tr.cited");
  if (!target && document.querySelector('.source-code[data-show="end"]')) {
    target = document.querySelector(".source-lines tr:last-child");
  }
  if (target) { target.scrollIntoView({ block: "center" }); }

  var back = document.getElementById("back-to-chat");
  var chat = null;
  if (document.referrer) {
    var from = new URL(document.referrer);
    if (from.origin === window.location.origin) chat = from.pathname;
  }
  try {
    // Set by the chat page when one of its citations is followed (see chat.js).
    var cited = JSON.parse(sessionStorage.getItem("cited-from") || "null");
    if (cited && cited.source === window.location.pathname + window.location.search) chat = cited.chat;
  } catch (error) { /* storage off */ }
  if (back && chat && /^\/chats\/\d+\/$/.test(chat)) {
    back.href = chat;
    back.hidden = false;
  }

  function copied(button, text) {
    var label = button.textContent;
    navigator.clipboard.writeText(text).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 1500);
    });
  }

  var canCopy = !!(navigator.clipboard && window.isSecureContext);
  var copyFile = document.getElementById("copy-file");
  var copyLink = document.getElementById("copy-link");
  var raw = document.querySelector(".source-actions a[href*='/raw/']");
  if (canCopy && copyFile && raw) {
    copyFile.hidden = false;
    copyFile.addEventListener("click", function () {
      fetch(raw.href, { credentials: "same-origin" }).then(function (response) { return response.text(); })
        .then(function (text) { copied(copyFile, text); });
    });
  }
  if (canCopy && copyLink) {
    copyLink.hidden = false;
    copyLink.addEventListener("click", function () { copied(copyLink, window.location.href); });
  }

  var rows = document.querySelector(".source-lines");
  if (!rows) return;
  var anchor = null;
  var marked = document.querySelector(".source-lines tr.cited");
  if (marked) anchor = parseInt(marked.id.slice(1), 10);

  function select(first, last) {
    rows.querySelectorAll("tr.cited").forEach(function (row) { row.classList.remove("cited"); });
    for (var n = first; n <= last; n++) {
      var row = document.getElementById("L" + n);
      if (row) row.classList.add("cited");
    }
    var url = new URL(window.location.href);
    url.searchParams.set("lines", first === last ? String(first) : first + "-" + last);
    url.searchParams.delete("start");
    url.searchParams.delete("end");
    url.hash = "L" + first;
    history.replaceState(null, "", url);
  }

  rows.addEventListener("click", function (event) {
    var link = event.target.closest(".ln a");
    if (!link) return;
    event.preventDefault();
    var line = parseInt(link.closest("tr").id.slice(1), 10);
    if (event.shiftKey && anchor !== null) {
      select(Math.min(anchor, line), Math.max(anchor, line));
    } else {
      anchor = line;
      select(line, line);
    }
  });
})();
