// A new fw-a app's first page looks made: the scaffold has a layout and a stylesheet
// of its own (static/, no CDN). Checked in Debian's Chromium through playwright-core: the styles
// apply (computed styles, not the HTML text), no request leaves 127.0.0.1, and a screenshot is
// saved to test/screenshots/fw-a-welcome.png for a person to look at.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const SHOTS = fileURLToPath(new URL("./screenshots/", import.meta.url));
const bin = fileURLToPath(new URL("../bin/fw-a.js", import.meta.url));
const env = { ...process.env, FW_TS_LOADER: "" };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitUntilServing(url: string, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the scaffolded app never answered ${url}:\n${output()}`);
}

describe("fw-a scaffold: the first page in a real browser", () => {
  let dir = "";
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let base = "";
  let output = "";
  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH`,
    );
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), "fw-a-welcome-"));
    const init = spawnSync(process.execPath, [bin, "gen:init"], { cwd: dir, encoding: "utf8", env });
    assert.equal(init.status, 0, init.stderr);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [bin, "gen:serve", "--port", String(port)], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    server.stdout!.on("data", (chunk) => (output += chunk));
    server.stderr!.on("data", (chunk) => (output += chunk));
    await waitUntilServing(`${base}/`, () => output);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-background-networking"],
    });
  });
  after(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test("the scaffold's stylesheet is its own file, served from static/", async () => {
    assert.ok(statSync(join(dir, "static/css/app.css")).size > 1000, "a stylesheet with a real layout, not one rule");
    const layout = readFileSync(join(dir, "templates/layouts/base.html"), "utf8");
    assert.doesNotMatch(layout, /https?:\/\//, "the layout loads nothing from a CDN");
    const css = await fetch(`${base}/static/css/app.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get("content-type") ?? "", /text\/css/);
  });

  test("the welcome page is styled (computed styles in Chromium) and a screenshot is saved", async () => {
    const page = await browser!.newPage({ viewport: { width: 1100, height: 760 }, colorScheme: "light" });
    const outside: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(base)) outside.push(request.url());
    });
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${base}/`, { waitUntil: "load" });
    const styles = (await page.evaluate(`(() => {
      const get = (selector) => { const el = document.querySelector(selector); return el ? getComputedStyle(el) : null; };
      const body = get("body"), header = get(".site-header"), main = get("main.page"), card = get(".card"), h1 = get("h1"), button = get(".button");
      return {
        sheets: [...document.styleSheets].map((s) => s.href),
        bodyFont: body.fontFamily, bodyMargin: body.marginTop, bodyBackground: body.backgroundColor,
        headerBackground: header && header.backgroundColor, headerBorder: header && header.borderBottomWidth,
        mainMaxWidth: main && main.maxWidth,
        cardRadius: card && card.borderTopLeftRadius, cardBackground: card && card.backgroundColor,
        h1Size: h1 && h1.fontSize,
        buttonBackground: button && button.backgroundColor,
        cards: document.querySelectorAll(".card").length,
      };
    })()`)) as Record<string, unknown>;
    await page.screenshot({ path: `${SHOTS}fw-a-welcome.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: `${SHOTS}fw-a-welcome-dark.png`, fullPage: true });
    await page.close();

    assert.deepEqual(failed, [], "every resource of the page loads");
    assert.deepEqual(outside, [], "the page asks nothing of another host");
    // static() gives the content-hashed URL of static/css/app.css.
    const sheets = styles["sheets"] as string[];
    assert.equal(sheets.length, 1, sheets.join(", "));
    assert.match(sheets[0]!, new RegExp(`^${base}/static/css/app(\\.[0-9a-f]+)?\\.css$`));
    assert.match(String(styles["bodyFont"]), /system-ui/, "the stylesheet's font, not the browser's default serif");
    assert.equal(styles["bodyMargin"], "0px");
    assert.equal(styles["bodyBackground"], "rgb(246, 247, 251)");
    assert.equal(styles["headerBackground"], "rgb(255, 255, 255)");
    assert.equal(styles["headerBorder"], "1px");
    assert.equal(styles["mainMaxWidth"], "960px");
    assert.equal(styles["cardRadius"], "12px");
    assert.equal(styles["cards"], 2);
    assert.equal(styles["h1Size"], "36px");
    assert.equal(styles["buttonBackground"], "rgb(61, 90, 254)");
    assert.ok(statSync(`${SHOTS}fw-a-welcome.png`).size > 10_000, "a screenshot with content");
  });
});
