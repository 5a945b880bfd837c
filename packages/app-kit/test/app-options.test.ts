// The app options every framework of the kit shares (app-options.ts), checked where a user writes
// them: defineApp and createApp of a framework made with defineFramework refuse an unknown option
// (E_UNKNOWN_OPTION, with the known name suggested, aliases included).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { HostView } from "@fwkit/koa-host/plugin";
import { defineConventions } from "routing-kernel";
import { defineFramework, resolveAppOptions } from "../src/index.js";

class View extends HostView {}
const framework = defineFramework({
  name: "kit-test",
  conventions: defineConventions({ baseClass: View, trailingSlash: false }),
  responder: () => ({
    prepare: () => (ctx, result) => {
      ctx.body = result ?? "";
    },
    renderError: (ctx, info) => {
      ctx.status = info.status;
    },
    describe: () => "text",
  }),
});
const root = mkdtempSync(join(tmpdir(), "kit-app-options-"));
after(() => rmSync(root, { recursive: true, force: true }));

const unknownOption = (pattern: RegExp) => (error: Error & { code?: string }) =>
  error.code === "E_UNKNOWN_OPTION" && pattern.test(error.message);

describe("app options of a framework made with defineFramework", () => {
  test("defineApp refuses an unknown option, suggesting the known name or its alias", () => {
    assert.throws(
      () => framework.defineApp({ root, veiws: ["main"] } as never),
      unknownOption(/defineApp\(options\) has no option "veiws"\. Did you mean "views"\?/),
    );
    assert.throws(
      () => framework.defineApp({ root, viewModule: ["main"] } as never),
      unknownOption(/Did you mean "viewModules"\?/),
    );
  });

  test("createApp refuses an unknown option with a suggestion", async () => {
    await assert.rejects(
      framework.createApp({ root, modules: [], mount: {} } as never),
      unknownOption(/createApp\(options\) has no option "mount"\. Did you mean "mounts"\?/),
    );
  });

  test("an alias becomes its name; both given is refused", () => {
    assert.deepEqual(resolveAppOptions("createApp(options)", { views: ["main"] }), { viewModules: ["main"] });
    assert.throws(() => resolveAppOptions("createApp(options)", { views: ["a"], viewModules: ["b"] }), {
      code: "E_OPTION_ALIAS_TWICE",
    });
  });
});
