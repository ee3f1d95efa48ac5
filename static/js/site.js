// Site-wide: times shown in the reader's own time zone, relative times kept
// current ("just now", "5 minutes ago"), and the colour theme toggle.
(function () {
  "use strict";

  const DAY = 86400;
  // Django's timesince units: the first that fits, then the next one when it is not zero.
  const UNITS = [["year", 365 * DAY], ["month", 30 * DAY], ["week", 7 * DAY], ["day", DAY], ["hour", 3600], ["minute", 60]];

  function plural(count, unit) {
    return count + " " + unit + (count === 1 ? "" : "s");
  }

  function ago(date) {
    let seconds = Math.floor((Date.now() - date.getTime()) / 1000);
    if (seconds < 60) return "just now";
    for (let i = 0; i < UNITS.length; i++) {
      const count = Math.floor(seconds / UNITS[i][1]);
      if (!count) continue;
      let text = plural(count, UNITS[i][0]);
      const next = UNITS[i + 1];
      if (next) {
        const rest = Math.floor((seconds - count * UNITS[i][1]) / next[1]);
        if (rest) text += ", " + plural(rest, next[0]);
      }
      return text + " ago";
    }
    return "just now";
  }

  const sameYear = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  const otherYear = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  const full = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });

  function localize(element) {
    const date = new Date(element.getAttribute("datetime"));
    if (isNaN(date.getTime())) return;
    const kind = element.dataset.local;
    if (kind === "datetime") {
      element.textContent = (date.getFullYear() === new Date().getFullYear() ? sameYear : otherYear).format(date);
    } else if (kind === "relative") {
      element.textContent = ago(date);
    }
    element.title = full.format(date);
  }

  // A code block wider than its box scrolls sideways: keyboard users reach it with Tab to scroll it.
  function reachable(pre) {
    if (!pre.hasAttribute("tabindex") && pre.scrollWidth > pre.clientWidth) pre.setAttribute("tabindex", "0");
  }

  function localizeAll(root) {
    if (root.matches && root.matches("time[datetime][data-local]")) localize(root);
    if (root.querySelectorAll) {
      root.querySelectorAll("time[datetime][data-local]").forEach(localize);
      root.querySelectorAll("pre").forEach(reachable);
    }
  }

  localizeAll(document);
  // Messages and runs arrive in swapped fragments (htmx, the chat's websocket).
  new MutationObserver(function (mutations) {
    mutations.forEach(function (mutation) { mutation.addedNodes.forEach(localizeAll); });
  }).observe(document.body, { childList: true, subtree: true });
  setInterval(function () {
    document.querySelectorAll('time[datetime][data-local="relative"]').forEach(localize);
  }, 30000);

  // "/" goes to the page's search box (the repository pages' code search), as on GitHub.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    const box = document.querySelector('input[aria-keyshortcuts="/"]');
    if (box) {
      event.preventDefault();
      box.focus();
      box.select();
    }
  });

  // The theme: "system" (follow the system's setting), "dark" or "light"; remembered in localStorage.
  // The page's <head> applies it before the first paint; this keeps it in step with the toggle.
  const toggle = document.getElementById("theme-toggle");
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const NEXT = { system: "dark", dark: "light", light: "system" };
  const LABEL = { system: "System", dark: "Dark", light: "Light" };

  function chosen() {
    try { return localStorage.getItem("theme") || "system"; } catch (error) { return "system"; }
  }

  function apply(choice) {
    const dark = choice === "dark" || (choice === "system" && system.matches);
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    if (toggle) {
      toggle.dataset.choice = choice;
      toggle.querySelector(".theme-name").textContent = LABEL[choice];
      toggle.setAttribute("aria-label", "Theme: " + LABEL[choice] + " (change)");
    }
  }

  system.addEventListener("change", function () { apply(chosen()); });
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      const choice = NEXT[chosen()] || "system";
      try { localStorage.setItem("theme", choice); } catch (error) { /* private mode: this page only */ }
      apply(choice);
    });
  }
  apply(chosen());
})();
