/**
 * Whether HTML can run script, decided by a real browser rather than by reading strings: Debian's
 * Chromium (through playwright-core) parses the HTML as a victim's browser would, with `alert`,
 * `confirm`, `prompt` and `print` recorded, then the parsed DOM is searched for anything that could
 * run later (event attributes, script-bearing elements, URLs whose resolved scheme is not http,
 * https or mailto). The browser makes no network request: every request it tries is answered in
 * process or refused.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

/** Where Chromium is (override with CHROMIUM_PATH). */
export const CHROMIUM_PATH = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

/** Starts headless Chromium, or fails naming how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    assert.fail(
      `Chromium is missing at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-background-networking"],
  });
}

// Runs in the page before any of its own script: every way a vector reports itself is recorded.
const RECORDER = `window.__scriptRan = [];
for (const name of ["alert", "confirm", "prompt", "print"]) {
  window[name] = (...args) => { window.__scriptRan.push(name + "(" + args.map(String).join(",") + ")"); };
}`;

// Runs in the page (as source text, so this file needs no DOM typings): what the DOM under the
// selector holds that could run script.
const FIND_LIVE_MARKUP = `(rootSelector) => {
  const ACTIVE = new Set(["SCRIPT", "IFRAME", "FRAME", "OBJECT", "EMBED", "APPLET", "FORM", "BUTTON", "STYLE", "LINK", "META", "BASE", "svg", "math", "TEMPLATE", "NOSCRIPT"]);
  const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);
  const found = [];
  for (const root of document.querySelectorAll(rootSelector)) {
    const label = root.getAttribute("data-case") ?? rootSelector;
    for (const el of root.querySelectorAll("*")) {
      const name = el.tagName;
      if (ACTIVE.has(name) || ACTIVE.has(name.toUpperCase())) found.push(\`\${label}: <\${name.toLowerCase()}> element\`);
      for (const attr of el.getAttributeNames()) {
        const lower = attr.toLowerCase();
        if (lower.startsWith("on") || ["style", "srcdoc", "formaction", "action", "xlink:href", "background"].includes(lower)) {
          found.push(\`\${label}: \${lower} attribute on <\${name.toLowerCase()}>\`);
        }
      }
      for (const attr of ["href", "src", "data"]) {
        const value = el.getAttribute(attr);
        if (value === null) continue;
        let scheme;
        try {
          scheme = new URL(value, document.baseURI).protocol;
        } catch {
          continue; // a URL the browser cannot parse cannot be followed either
        }
        if (!SAFE_SCHEMES.has(scheme)) found.push(\`\${label}: \${attr}="\${value}" resolves to scheme \${scheme}\`);
      }
    }
  }
  return found;
}`;

/**
 * Opens `url` in a fresh page with the recorder; only requests to `url`'s own origin go out (the
 * app under test on 127.0.0.1), anything a vector would fetch elsewhere is refused.
 */
export async function openUrl(browser: Browser, url: string): Promise<{ page: Page; status: number | undefined }> {
  const page = await browser.newPage();
  await page.addInitScript(RECORDER);
  const origin = new URL(url).origin;
  await page.route("**/*", (route) =>
    new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
  );
  const response = await page.goto(url, { waitUntil: "load" });
  return { page, status: response?.status() };
}

/** Serves `html` at an in-process address (no network) in a fresh page with the recorder. */
export async function openHtml(browser: Browser, html: string): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript(RECORDER);
  const address = "http://127.0.0.1/__xss-check";
  await page.route("**/*", (route) =>
    route.request().url() === address
      ? route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html })
      : route.abort(),
  );
  await page.goto(address, { waitUntil: "load" });
  return page;
}

/**
 * The script a loaded page ran (recorded `alert`s...) and the live markup under `rootSelector`;
 * empty when the HTML there is inert. Waits for the image errors and autofocus events that fire
 * after `load` to be delivered first.
 */
export async function liveMarkupIn(page: Page, rootSelector: string): Promise<string[]> {
  await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100)))");
  const ran = (await page.evaluate("window.__scriptRan ?? []")) as string[];
  const markup = (await page.evaluate(`(${FIND_LIVE_MARKUP})(${JSON.stringify(rootSelector)})`)) as string[];
  return [...ran.map((call) => `script ran: ${call}`), ...markup];
}

/**
 * Renders each HTML fragment in its own `<section data-case>` of one page in Chromium and answers
 * what could run script (empty when every fragment is inert). `labels[i]` names fragment i.
 */
export async function liveMarkupInFragments(
  browser: Browser,
  fragments: readonly string[],
  labels: readonly string[] = [],
): Promise<string[]> {
  const escapeAttr = (text: string) => text.replace(/[&"<]/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = fragments
    .map((html, i) => `<section data-case="${escapeAttr(labels[i] ?? `#${i}`)}">${html}</section>`)
    .join("\n");
  const page = await openHtml(
    browser,
    `<!doctype html><html><head><title>check</title></head><body>${body}</body></html>`,
  );
  try {
    return await liveMarkupIn(page, "section[data-case]");
  } finally {
    await page.close();
  }
}
