// fw-b's theme switch: light, dark, or the system's choice; kept in the `fwb_theme` cookie so
// the server renders the page in that theme at once.
(() => {
  var button = document.getElementById("fwb-theme-toggle");
  if (!button) return;
  button.addEventListener("click", () => {
    var root = document.documentElement;
    var current =
      root.getAttribute("data-theme") ||
      (window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light");
    var next = current === "dark" ? "light" : "dark";
    root.setAttribute("data-theme", next);
    // biome-ignore lint/suspicious/noDocumentCookie: a one-line theme preference, read by the server on the next page; no library for it.
    document.cookie = `fwb_theme=${next}; path=/; max-age=31536000; samesite=lax`;
  });
})();
