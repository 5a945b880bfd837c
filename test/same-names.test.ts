// The same option, flag and helper names for the same thing in fw-a and fw-b. Both
// frameworks' createApp/defineApp take the same option names (the app kit's APP_OPTION_KEYS); the
// names one seed gave an option are aliases, listed in docs/configuration.md "Same thing, same name",
// accepted by both and backed by one implementation.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { APP_OPTION_ALIASES, APP_OPTION_KEYS } from "../packages/app-kit/src/app-options.js";
import { defaultConfig } from "../packages/koa-host/src/config.js";
import { contribSettings } from "../packages/fw-b/src/contrib/config.js";
import * as fwA from "../packages/fw-a/src/index.js";
import * as fwB from "../packages/fw-b/src/index.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = mkdtempSync(join(tmpdir(), "same-names-"));
after(() => rmSync(root, { recursive: true, force: true }));

const frameworks = { "fw-a": fwA, "fw-b": fwB } as const;

/** The option names a framework's defineApp accepts, read from its refusal of an unknown one. */
function optionNames(defineApp: (options: never) => unknown): string[] {
  try {
    defineApp({ root, bogusOption: true } as never);
  } catch (error) {
    assert.equal((error as { code?: string }).code, "E_UNKNOWN_OPTION");
    const list = /Its options are: (.*)\.$/.exec((error as Error).message)?.[1];
    assert.ok(list, (error as Error).message);
    return list.split(", ").sort();
  }
  assert.fail("defineApp accepted an unknown option");
}

/** The "Same thing, same name" table of docs/configuration.md, as its rows' cells. */
function namesTable(): string[][] {
  const doc = readFileSync(join(repoRoot, "docs", "configuration.md"), "utf8");
  const section = doc.split(/^## Same thing, same name$/m)[1];
  assert.ok(section, 'docs/configuration.md has a "Same thing, same name" section');
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("|---"))
    .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| |\s*\|$/g, "").trim()));
}

describe("same thing, same name in fw-a and fw-b", () => {
  test("both frameworks' defineApp take the same option names, and they are the app kit's list plus the aliases", () => {
    const a = optionNames(fwA.defineApp as never);
    const b = optionNames(fwB.defineApp as never);
    assert.deepEqual(a, b, "fw-a and fw-b accept the same app options");
    assert.deepEqual(a, [...APP_OPTION_KEYS, ...Object.keys(APP_OPTION_ALIASES)].sort());
  });

  test("every alias is documented in the table with the option it stands for, for both frameworks", () => {
    const rows = namesTable();
    assert.deepEqual(rows[0], ["name", "fw-a", "fw-b", "note"]);
    for (const [alias, name] of Object.entries(APP_OPTION_ALIASES)) {
      const row = rows.find((cells) => cells[0] === `app option \`${name}\``);
      assert.ok(row, `a row for the app option ${name}`);
      for (const cell of [row[1]!, row[2]!])
        assert.match(cell, new RegExp(`\`${name}\`, alias \`${alias}\``), `${name}: "${cell}"`);
    }
    for (const name of APP_OPTION_KEYS) {
      assert.ok(
        rows.some((cells) => cells[0]!.includes(`\`${name}\``)),
        `the table names the app option ${name}`,
      );
    }
  });

  for (const [framework, api] of Object.entries(frameworks)) {
    test(`${framework}: an option under its name and under its alias is refused (E_OPTION_ALIAS_TWICE)`, async () => {
      assert.throws(
        () => api.defineApp({ root, viewModules: ["main"], views: ["main"] }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_OPTION_ALIAS_TWICE");
          assert.match(error.message, /"viewModules" and "views"/);
          return true;
        },
      );
      await assert.rejects(api.createApp({ root, viewModules: ["main"], views: ["main"] }), {
        code: "E_OPTION_ALIAS_TWICE",
      });
    });
  }

  test("fw-b reads fw-a's config key i18n as contrib.i18n; giving both is E_CONTRIB_CONFIG", () => {
    const base = defaultConfig(root, "test");
    // The keys read from the schema; an unset optional one reads as undefined.
    const given = (read: object) => Object.fromEntries(Object.entries(read).filter(([, value]) => value !== undefined));
    assert.deepEqual(given(contribSettings({ ...base, i18n: { languages: ["en", "fr"], fallback: "en" } }).i18n), {
      languages: ["en", "fr"],
      fallback: "en",
    });
    assert.deepEqual(given(contribSettings({ ...base, contrib: { i18n: { languages: ["de"] } } }).i18n), {
      languages: ["de"],
    });
    assert.throws(
      () => contribSettings({ ...base, i18n: { languages: ["en"] }, contrib: { i18n: { languages: ["de"] } } }),
      { code: "E_CONTRIB_CONFIG" },
    );
  });

  test("Markdown: renderMarkdown and markdown are one function, exported by both frameworks", () => {
    assert.equal(typeof fwA.renderMarkdown, "function");
    assert.equal(fwA.markdown, fwA.renderMarkdown);
    assert.equal(fwB.markdown, fwB.renderMarkdown);
    assert.equal(fwA.renderMarkdown, fwB.renderMarkdown);
  });

  test("custom metrics: defineCounter, defineGauge and defineHistogram are one set of functions, exported by both frameworks", () => {
    for (const [name, a, b] of [
      ["defineCounter", fwA.defineCounter, fwB.defineCounter],
      ["defineGauge", fwA.defineGauge, fwB.defineGauge],
      ["defineHistogram", fwA.defineHistogram, fwB.defineHistogram],
    ] as const) {
      assert.equal(typeof a, "function", `fw-a exports ${name}`);
      assert.equal(a, b, `fw-b exports the same ${name}`);
    }
  });

  test("fw-b mounts another app under a prefix with `mounts`, as fw-a does", async () => {
    class Home extends fwB.FwB {
      index() {
        return "home";
      }
    }
    class Status extends fwB.FwB {
      index() {
        return `ok at ${this.urlFor(Status)}`;
      }
    }
    // No batteries: nothing here needs a session or a database.
    const config = {
      logLevel: "silent",
      logRequests: false,
      batteries: { security: false, data: false, services: false },
    };
    const api = fwB.defineApp({ root, name: "api", modules: [{ name: "status", exports: { Status } }], config });
    const host = await fwB.createApp({
      root,
      modules: [{ name: "main", exports: { Home } }],
      config,
      mounts: { "/api": api },
    });
    const server = await host.listen(0, "127.0.0.1");
    try {
      const { port } = server.address() as { port: number };
      const answer = await fetch(`http://127.0.0.1:${port}/api/status`);
      assert.equal(answer.status, 200);
      assert.equal(
        await answer.text(),
        "ok at /api/status",
        "the mounted app answers under the prefix and its URLs carry it",
      );
    } finally {
      await host.close();
    }
  });
});
