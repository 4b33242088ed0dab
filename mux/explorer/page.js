// The explorer's navigation: next/previous stage (j/k), expand/collapse every
// section, and a search that opens the sections it finds text in.
(function () {
  "use strict";
  const stages = Array.from(document.querySelectorAll("section.stage"));
  const navItems = Array.from(document.querySelectorAll("#stages li"));
  const search = document.getElementById("search");
  const hits = document.getElementById("hits");

  function current() {
    // the last stage whose top is above the middle of the window
    let index = 0;
    stages.forEach((s, i) => { if (s.getBoundingClientRect().top < innerHeight / 3) index = i; });
    return index;
  }
  function go(step) {
    const next = stages[Math.min(Math.max(current() + step, 0), stages.length - 1)];
    if (next) { next.scrollIntoView(); history.replaceState(null, "", "#" + next.id); }
  }
  function markCurrent() {
    const index = current();
    navItems.forEach((li, i) => li.classList.toggle("current", i === index));
  }
  function setAll(open) {
    document.querySelectorAll("main details").forEach((d) => { d.open = open; });
  }
  function findText(query, backwards) {
    // open what holds the text, then let the browser select the next occurrence
    const q = query.toLowerCase();
    let count = 0;
    stages.forEach((s, i) => {
      const hit = q !== "" && s.textContent.toLowerCase().includes(q);
      if (navItems[i]) navItems[i].classList.toggle("hit", hit);
      if (hit) count += 1;
    });
    hits.textContent = q ? count + " stages" : "";
    if (!q) return;
    document.querySelectorAll("main details").forEach((d) => {
      if (d.textContent.toLowerCase().includes(q)) d.open = true;
    });
    if (typeof window.find === "function") window.find(query, false, backwards, true);
  }

  function reveal() {
    // a link into a closed section (a function of the assembly) opens it
    const target = location.hash && document.getElementById(location.hash.slice(1));
    for (let e = target; e; e = e.parentElement) if (e.tagName === "DETAILS") e.open = true;
    if (target) target.scrollIntoView();
  }
  addEventListener("hashchange", reveal);
  reveal();

  document.getElementById("expand").addEventListener("click", () => setAll(true));
  document.getElementById("collapse").addEventListener("click", () => setAll(false));
  search.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { findText(search.value, e.shiftKey); e.preventDefault(); }
    if (e.key === "Escape") search.blur();
  });
  document.addEventListener("keydown", (e) => {
    if (e.target === search || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "j" || e.key === "n") go(1);
    else if (e.key === "k" || e.key === "p") go(-1);
    else if (e.key === "/") { search.focus(); e.preventDefault(); }
  });
  document.querySelector("main").addEventListener("scroll", markCurrent, { passive: true });
  markCurrent();
})();
