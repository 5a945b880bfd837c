// Importing fw-b (and fw-b/contrib, fw-b/testing), and running an app that configures no optional backend or
// contrib module, loads none of their drivers (the shared cases of
// @fwkit/test-servers/framework-cases); fw-b's contrib drivers load when a module needs them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadedAmong, packagesLoadedBy } from "@fwkit/test-servers";
import { DRIVER_PACKAGES, lazyImportCases } from "@fwkit/test-servers/framework-cases";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const fixtureApp = fileURLToPath(new URL("./fixture-app", import.meta.url));

/** fw-b's contrib drivers: OAuth, the captcha and translations. */
const CONTRIB_DRIVERS = ["openid-client", "svg-captcha", "i18next"];
const DRIVERS = [...DRIVER_PACKAGES, ...CONTRIB_DRIVERS];

// The default layout translates its labels, so the first page rendered loads i18next.
lazyImportCases({
  name: "fw-b",
  packageDir,
  fixtureApp,
  entries: ["fw-b/contrib", "fw-b/testing"],
  drivers: CONTRIB_DRIVERS,
  pageLoads: ["i18next"],
});

describe("fw-b loads contrib drivers only when a module needs them", () => {
  test("the captcha's svg-captcha is loaded at the first challenge drawn, not when the app starts", () => {
    const loaded = packagesLoadedBy(
      packageDir,
      `const { createRequire } = await import("node:module");
const { createApp } = await import("fw-b");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", contrib: { captcha: true } } });
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes("/node_modules/svg-captcha/"));
if (loaded()) throw new Error("svg-captcha was loaded at start-up");
const { svgCaptchaVerifier } = await import("fw-b/contrib");
svgCaptchaVerifier("secret").challenge({ session: {} });
if (!loaded()) throw new Error("svg-captcha was not loaded by a challenge");
await app.close();`,
    );
    assert.deepEqual(loadedAmong(loaded, DRIVERS, ["svg-captcha"]), []);
  });

  test("an app with contrib.oauth on finds openid-client at start-up (the install check) without loading it", () => {
    const oauth = {
      providers: {
        acme: {
          type: "oauth2",
          clientId: "id",
          clientSecret: "secret",
          authorizationEndpoint: "https://acme.test/a",
          tokenEndpoint: "https://acme.test/t",
          userinfoEndpoint: "https://acme.test/u",
        },
      },
    };
    const loaded = packagesLoadedBy(
      packageDir,
      `const { createApp } = await import("fw-b");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", autoMigrate: true, contrib: { auth: true, oauth: ${JSON.stringify(oauth)} } } });
await app.close();`,
    );
    assert.deepEqual(loadedAmong(loaded, DRIVERS), []);
  });
});
