/**
 * Stored XSS through Markdown: the OWASP filter-evasion vectors, stored
 * as post bodies, rendered by the app's page through the framework's Markdown filter or local,
 * then loaded by Chromium from the running app; no script may run and no script-bearing markup
 * may remain in the posts.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { XSS_VECTORS } from "@fwkit/test-servers";
import { launchChromium, liveMarkupIn, openUrl } from "@fwkit/test-servers/browser";
import type { Target } from "../target.js";

/** Registers the stored-XSS cases against the app `target()` returns. */
export function xssCases(target: () => Target): void {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test("stored XSS: every OWASP vector stored as a post body is inert on the rendered page (Chromium)", async () => {
    const app = target();
    const { page, status } = await openUrl(browser, app.url + app.path("/posts"));
    try {
      assert.equal(status, 200);
      assert.equal(
        await page.locator("section[data-case]").count(),
        XSS_VECTORS.length,
        "every stored post is on the page",
      );
      const live = await liveMarkupIn(page, "section[data-case]");
      assert.deepEqual(
        live.map((line) => line.replace(/^(\d+):/, (_m, i: string) => `${JSON.stringify(XSS_VECTORS[Number(i)])}:`)),
        [],
      );
    } finally {
      await page.close();
    }
  });
}
