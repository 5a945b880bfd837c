// The scaffold's layout says the page's language: `<html lang>` is the request's language (the
// translations plugin's `locale`), not a hard-coded "en", so a German page is marked German for
// screen readers, hyphenation and the browser's translate offer.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import { after, before, describe, test } from "node:test";
import { skeletonFiles } from "../src/cli/skeleton.js";
import { createApp, FwA, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";

class Index extends FwA {
  index() {
    return { title: "Hallo" };
  }
}

describe("fw-a scaffold layout: <html lang> follows the request", () => {
  let root = "";
  let app: Host;
  let url = "";
  before(async () => {
    root = mkdtempSync(join(tmpdir(), "fw-a-layout-lang-"));
    const files: Record<string, string> = {
      "templates/layouts/base.html": skeletonFiles("Demo", root)["templates/layouts/base.html"]!,
      "templates/main/Index/index.html": `{% extends "layouts/base.html" %}{% block body %}<h1>{{ title }}</h1>{% endblock %}`,
      "static/css/app.css": "body{}",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    app = await createApp({
      root,
      modules: [{ name: "main", exports: { Index } }],
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:" },
    } as never);
    url = (await listenForTest(app)).url;
  });
  after(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("German, French and the English default", async () => {
    const page = (lang?: string) =>
      fetch(`${url}/`, { headers: lang ? { "accept-language": lang } : {} }).then((r) => r.text());
    assert.match(await page("de"), /<html lang="de">/);
    assert.match(await page("fr-CA,fr;q=0.9"), /<html lang="fr">/);
    assert.match(await page(), /<html lang="en">/);
  });
});
