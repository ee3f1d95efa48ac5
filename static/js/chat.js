// The chat page: keyboard sending, the Stop button, restoring unsent text,
// keeping the newest text in view, a composer that grows with its text, the
// tab's title, copy buttons, regenerate and edit-and-resend. Frames
// themselves are swapped by htmx.
(function () {
  "use strict";
  const chat = document.getElementById("chat");
  if (!chat) return;
  const composer = document.getElementById("composer");
  const question = document.getElementById("question");
  const stopButton = document.getElementById("stop");
  const connection = document.getElementById("connection");
  const messages = document.getElementById("messages");
  // Touch screens often have no keyboard: their placeholder mentions no keys (Enter still sends from one).
  if (window.matchMedia("(pointer: coarse)").matches) question.placeholder = "Ask about the code…";

  function grow() {
    question.style.height = "auto";
    const limit = Math.round(window.innerHeight * 0.4);
    question.style.height = Math.min(question.scrollHeight + 2, limit) + "px";
    question.style.overflowY = question.scrollHeight + 2 > limit ? "auto" : "hidden";
  }
  question.addEventListener("input", grow);

  function showTitle() {
    // Looked up each time: the first question's frame replaces the heading with the chat's new title.
    const name = document.getElementById("chat-title").textContent.trim();
    if (name) document.title = name + " · Codebase assistant";
  }

  function copyText(text, button) {
    const done = function () {
      const label = button.textContent;
      button.textContent = "Copied";
      button.classList.add("is-done");
      setTimeout(function () { button.textContent = label; button.classList.remove("is-done"); }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done);
      return;
    }
    // Plain http on another host has no clipboard API: the old way still copies.
    const scratch = document.createElement("textarea");
    scratch.value = text;
    scratch.setAttribute("readonly", "");
    scratch.style.position = "fixed";
    scratch.style.opacity = "0";
    document.body.appendChild(scratch);
    scratch.select();
    document.execCommand("copy");
    scratch.remove();
    done();
  }

  // Every code block of a rendered message gets a copy button of its own.
  function decorateCode(root) {
    root.querySelectorAll(".markdown pre").forEach(function (pre) {
      if (pre.parentElement.classList.contains("code-block")) return;
      const wrapper = document.createElement("div");
      wrapper.className = "code-block";
      pre.replaceWith(wrapper);
      wrapper.appendChild(pre);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "copy-code";
      button.textContent = "Copy";
      button.setAttribute("aria-label", "Copy this code");
      wrapper.appendChild(button);
    });
  }

  function ask(text) {
    question.value = text;
    grow();
    composer.requestSubmit();
  }

  // Regenerate and edit-and-resend replace a question and everything after it, as in other chat
  // tools: the server marks them replaced (kept for audit, gone from the page and the model's
  // history), the page drops them, and only then is the question asked again over the socket.
  const editing = document.getElementById("editing");
  let editedId = null;
  let replacing = false;

  function showNotice(text) {
    const notice = document.createElement("p");
    notice.className = "notice notice-error";
    notice.setAttribute("role", "alert");
    notice.textContent = text;
    document.getElementById("chat-notices").appendChild(notice);
  }

  function replaceFrom(messageId) {
    replacing = true;
    const url = composer.dataset.replaceUrl.replace(/\/0\/replace\/$/, "/" + messageId + "/replace/");
    const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    return fetch(url, { method: "POST", headers: { "X-CSRFToken": token }, credentials: "same-origin" })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.error || "The question could not be replaced.");
          body.replaced.forEach(function (id) {
            const element = document.getElementById(id);
            if (element) element.remove();
          });
          return true;
        });
      })
      .catch(function (error) {
        showNotice(error instanceof SyntaxError || error instanceof TypeError ? "The question could not be replaced: try again." : error.message);
        return false;
      })
      .finally(function () { replacing = false; });
  }

  function startEditing(button) {
    stopEditing();
    editedId = button.dataset.message;
    button.closest(".msg").classList.add("is-edited");
    editing.hidden = false;
    question.value = button.dataset.text;
    grow();
    question.focus();
    question.setSelectionRange(question.value.length, question.value.length);
  }

  function stopEditing() {
    editedId = null;
    editing.hidden = true;
    messages.querySelectorAll(".msg.is-edited").forEach(function (element) { element.classList.remove("is-edited"); });
  }

  document.getElementById("cancel-edit").addEventListener("click", function () {
    stopEditing();
    question.value = "";
    grow();
    question.focus();
  });

  messages.addEventListener("click", function (event) {
    // A followed citation remembers this chat, so the source view can lead back to it (answers'
    // links carry rel=noreferrer, which hides the chat from document.referrer).
    const cited = event.target.closest('a[href*="/source/"]');
    if (cited) {
      try {
        sessionStorage.setItem("cited-from", JSON.stringify({ source: new URL(cited.href).pathname + new URL(cited.href).search, chat: window.location.pathname }));
      } catch (error) { /* storage off: no way back but the browser's */ }
      return;
    }
    const button = event.target.closest("button");
    if (!button) return;
    if (button.classList.contains("copy-code")) {
      copyText(button.parentElement.querySelector("pre").innerText, button);
      return;
    }
    const action = button.dataset.action;
    if (action === "copy") {
      copyText(button.dataset.text, button);
    } else if (action === "edit") {
      startEditing(button);
    } else if (action === "regenerate" && !replacing) {
      const answer = button.closest(".msg");
      let previous = answer.previousElementSibling;
      while (previous && !previous.classList.contains("msg-user")) previous = previous.previousElementSibling;
      const edit = previous && previous.querySelector('[data-action="edit"]');
      if (!edit) return;
      stopEditing();
      replaceFrom(edit.dataset.message).then(function (replaced) { if (replaced) ask(edit.dataset.text); });
    }
  });

  function nearBottom() {
    return window.innerHeight + window.scrollY >= document.body.scrollHeight - 120;
  }

  function scrollToEnd() {
    window.scrollTo(0, document.body.scrollHeight);
  }

  // Whether the newest message ends below the composer (hidden): only then is there anything to scroll to.
  function newestHidden() {
    const last = messages.querySelector(".msg:last-of-type");
    return !!last && last.getBoundingClientRect().bottom > document.querySelector(".composer").getBoundingClientRect().top;
  }

  function refreshState() {
    const streaming = messages.querySelector('.msg[data-status="streaming"]') !== null;
    stopButton.hidden = !streaming;
    chat.classList.toggle("is-streaming", streaming);
    // The edited question may have left (replaced from another tab): the composer is no longer editing it.
    if (editedId !== null && !document.getElementById("msg-" + editedId)) stopEditing();
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
    } else if (event.key === "Escape" && editedId !== null) {
      event.preventDefault();
      document.getElementById("cancel-edit").click();
    }
  });

  composer.addEventListener("htmx:wsConfigSend", function (event) {
    if (!question.value.trim() || replacing) {
      event.preventDefault();
      return;
    }
    if (editedId !== null) {
      // The edited question replaces the old one: sent once the old one is gone.
      event.preventDefault();
      const edited = editedId;
      replaceFrom(edited).then(function (replaced) {
        if (!replaced) return;
        stopEditing();
        composer.requestSubmit();
      });
    }
  });

  composer.addEventListener("htmx:wsAfterSend", function () {
    question.value = "";
    grow();
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
    decorateCode(messages);
    showTitle();
    if (follow && newestHidden()) scrollToEnd();
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
  decorateCode(messages);
  grow();
  // Focused by hand rather than with autofocus, which scrolled a short chat's header out of view.
  question.focus({ preventScroll: true });
  // Only a conversation taller than the window opens at its end: a short one keeps the page's header
  // in view, on a reload too (the browser would put back where the page was scrolled).
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  if (newestHidden()) scrollToEnd();
  else window.scrollTo(0, 0);
})();
