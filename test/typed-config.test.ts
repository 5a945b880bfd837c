// Typed configuration without an index signature, and the user type declared once.
// A freshly scaffolded app of each framework (its lib/config.ts included) type-checks against the
// frameworks' built types, and a file of misspelt keys under `// @ts-expect-error` proves each one is
// a compile error (tsc fails on an expect-error line that has no error), while the right keys and
// the declared user type compile without casts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { initApp as initFwA } from "../packages/fw-a/src/cli/init.js";
import { initApp as initFwB } from "../packages/fw-b/src/cli/scaffold.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(join(repoRoot, "package.json")).resolve("typescript/bin/tsc");
const work = mkdtempSync(join(tmpdir(), "typed-config-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** What both frameworks' apps must accept and refuse; `FW` is the framework's module name. */
const shared = (fw: string) => `import { defineConfig, type AppConfig } from "${fw}";

// Keys of the host and of every battery, at the top and in an environment section.
export const good = defineConfig({
  appName: "shop",
  sessionUrl: "redis://127.0.0.1:6379",
  sessionMaxAge: 3600,
  maxPerPage: 50,
  dbPool: { max: 5 },
  storage: { maxBytes: 1024 },
  cors: { origin: "https://example.com" },
  i18n: { languages: ["en", "fr"] },
  batteries: { data: false },
  environments: { production: { logLevel: "info", bodyLimits: { json: "100kb" } } },
});

// The app's own key, accepted once appKeys lists it.
export const own = defineConfig({ appKeys: ["pageSize"], pageSize: 20 });

// @ts-expect-error -- a misspelt host key
export const a = defineConfig({ logLevle: "info" });
// @ts-expect-error -- a misspelt security key
export const b = defineConfig({ sesionUrl: "redis://127.0.0.1:6379" });
// @ts-expect-error -- a misspelt data key
export const c = defineConfig({ maxPerPag: 5 });
// @ts-expect-error -- a misspelt key inside a block
export const d = defineConfig({ bodyLimits: { jsn: "1mb" } });
// @ts-expect-error -- a misspelt key in an environment section
export const e = defineConfig({ environments: { production: { secretKy: "x" } } });
// @ts-expect-error -- an own key appKeys does not list
export const f = defineConfig({ appKeys: ["pageSize"], pageSise: 20 });

// The resolved config has no catch-all either.
declare const config: AppConfig;
export const url: string | undefined = config.sessionUrl;
// @ts-expect-error -- no such key on the resolved config
export const nothing = config.sessionUlr;

// The user type, declared once for the app.
interface Member {
  readonly id: number;
  readonly email: string;
}
declare module "${fw}" {
  interface UserRegistry {
    user: Member;
  }
}
// The request context as the app sees it (the app does not depend on koa itself).
export function emailOf(ctx: Parameters<typeof CURRENT_USER>[0]): string | undefined {
  return CURRENT_USER(ctx)?.email;
}
`;

const frameworks = {
  "fw-a": {
    init: initFwA,
    extra: `import { FwA, security } from "fw-a";
const CURRENT_USER = security.currentUser;
export class Account extends FwA {
  @security.loginRequired index() {
    return { email: this.currentUser!.email };
  }
}
export const auth: import("fw-a").AuthOptions = { loadUser: async (id) => ({ id: Number(id), email: "a@example.com" }), userId: (user) => String(user.id) };
`,
  },
  "fw-b": {
    init: initFwB,
    extra: `import { FwB, currentUser as CURRENT_USER, defineConfig as defineFwB } from "fw-b";
import { loginRequired } from "fw-b/decorators";
export class Account extends FwB {
  @loginRequired index() {
    return { email: this.currentUser!.email };
  }
}
export const auth: import("fw-b").AuthOptions = { loadUser: async (id) => ({ id: Number(id), email: "a@example.com" }), userId: (user) => String(user.id) };
// fw-b's own keys, and contrib's, are typed too.
export const site = defineFwB({ siteName: "Shop", baseUrl: "https://example.com", contrib: { auth: { signup: false }, admin: true } });
// @ts-expect-error -- a misspelt contrib module option
export const g = defineFwB({ contrib: { auth: { signUp: false } } });
`,
  },
} as const;

describe("typed config and user type in a scaffolded app", () => {
  for (const [framework, { init, extra }] of Object.entries(frameworks)) {
    test(`${framework}: the scaffold type-checks, misspelt keys are compile errors, the user type needs no cast`, () => {
      const app = join(work, framework);
      init(app);
      writeFileSync(join(app, "lib", "typed-config-check.ts"), `${extra}\n${shared(framework)}`);
      const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit", "--pretty", "false"], {
        cwd: app,
        encoding: "utf8",
      });
      assert.equal(`${run.stdout}${run.stderr}`.trim(), "", `tsc found errors in the ${framework} app`);
      assert.equal(run.status, 0);
    });
  }
});
