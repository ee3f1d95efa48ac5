// The chat page: keyboard sending, the Stop button, restoring unsent text,
// keeping the newest text in view. Frames themselves are swapped by htmx.
(function () {
  "use strict";
  const chat = document.getElementById("chat");
  if (!chat) return;
  const composer = document.getElementById("composer");
  const question = document.getElementById("question");
  const stopButton = document.getElementById("stop");
  const connection = document.getElementById("connection");
  const messages = document.getElementById("messages");

  function nearBottom() {
    return window.innerHeight + window.scrollY >= document.body.scrollHeight - 120;
  }

  function scrollToEnd() {
    window.scrollTo(0, document.body.scrollHeight);
  }

  function refreshState() {
    const streaming = messages.querySelector('.msg[data-status="streaming"]') !== null;
    stopButton.hidden = !streaming;
    chat.classList.toggle("is-streaming", streaming);
  }

  question.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (question.value.trim()) composer.requestSubmit();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !stopButton.hidden) {
      event.preventDefault();
      stopButton.closest("form").requestSubmit();
    }
  });

  composer.addEventListener("htmx:wsConfigSend", function (event) {
    if (!question.value.trim()) {
      event.preventDefault();
      return;
    }
  });

  composer.addEventListener("htmx:wsAfterSend", function () {
    question.value = "";
    question.focus();
  });

  let follow = true;
  chat.addEventListener("htmx:wsBeforeMessage", function () {
    follow = nearBottom();
  });

  chat.addEventListener("htmx:wsAfterMessage", function () {
    const restore = document.getElementById("chat-restore");
    if (restore && restore.dataset.text) {
      if (!question.value.trim()) question.value = restore.dataset.text;
      delete restore.dataset.text;
    }
    refreshState();
    if (follow) scrollToEnd();
  });

  chat.addEventListener("htmx:wsOpen", function () {
    connection.textContent = "";
    connection.classList.remove("is-down");
  });

  chat.addEventListener("htmx:wsClose", function () {
    connection.textContent = "reconnecting…";
    connection.classList.add("is-down");
  });

  refreshState();
  scrollToEnd();
})();
