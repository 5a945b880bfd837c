import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { resolveSecurityConfig, SECURITY_DEFAULTS, validateCors } from "./config.js";

describe("resolveSecurityConfig", () => {
  test("defaults, and plugin options win over the app config", () => {
    const config = resolveSecurityConfig({ env: "test", secretKey: "k", sessionUrl: "redis://127.0.0.1:6379" }, { sessionUrl: "cookie", bcryptCost: 10 });
    assert.equal(config.sessionUrl, "cookie");
    assert.equal(config.bcryptCost, 10);
    assert.equal(config.sessionCookie, SECURITY_DEFAULTS.sessionCookie);
    assert.equal(config.passwordAlgorithm, "bcrypt");
    assert.equal(config.jwtAlgorithm, "HS256");
    assert.equal(config.cookieSecure, false);
    assert.equal(config.cors, false);
  });

  test("values from environment variables (strings) are read as numbers, booleans and lists", () => {
    const config = resolveSecurityConfig({
      env: "production",
      secretKey: "k",
      bcryptCost: "13",
      cookieSecure: "false",
      secretKeyFallbacks: "old-1, old-2",
      jwtExpiresIn: "900",
    });
    assert.equal(config.bcryptCost, 13);
    assert.equal(config.cookieSecure, false);
    assert.deepEqual(config.secretKeyFallbacks, ["old-1", "old-2"]);
    assert.equal(config.jwtExpiresIn, 900);
    assert.equal(resolveSecurityConfig({ env: "production", secretKey: "k" }).cookieSecure, true, "Secure by default in production");
  });

  test("out-of-range and malformed values are start-up errors naming the key", () => {
    const cases: Array<[string, unknown]> = [
      ["bcryptCost", 3],
      ["bcryptCost", "twelve"],
      ["passwordAlgorithm", "md5"],
      ["jwtAlgorithm", "none"],
      ["sessionCookie", "bad name;"],
      ["cookieSecure", "maybe"],
      ["jwtExpiresIn", "soon"],
      ["sessionMaxAge", 0],
      ["cors", "yes"],
    ];
    for (const [key, value] of cases) {
      assert.throws(
        () => resolveSecurityConfig({ secretKey: "k" }, { [key]: value }),
        (error: Error & { code?: string }) => error.code === "E_SECURITY_CONFIG_INVALID" && error.message.includes(`"${key}"`),
        `${key}=${JSON.stringify(value)}`,
      );
    }
  });

  test("a missing secret key: an error in production, a random key with a warning elsewhere", () => {
    assert.throws(() => resolveSecurityConfig({ env: "production" }), { code: "E_SECURITY_SECRET_KEY_MISSING" });
    const warnings: string[] = [];
    const first = resolveSecurityConfig({ env: "development" }, {}, (m) => warnings.push(m));
    const second = resolveSecurityConfig({ env: "development" }, {}, () => {});
    assert.ok(first.secretKey.length >= 32);
    assert.notEqual(first.secretKey, second.secretKey);
    assert.match(warnings[0] ?? "", /random one is used/);
  });
});

describe("CORS settings (issue 14.6)", () => {
  test("origin, the documented form, is one allowed origin", () => {
    assert.deepEqual(validateCors({ origin: "https://x.example" }, "@cors(options)"), { origins: ["https://x.example"] });
    assert.deepEqual(validateCors({ origin: "*" }, "@cors(options)"), { origins: "*" });
  });

  test("an unknown key is E_UNKNOWN_OPTION with a suggestion; wrong types and origin with origins are refused", () => {
    assert.throws(() => validateCors({ orign: "https://x.example" } as never, "@cors(options)"), /Did you mean "origin"\?/);
    assert.throws(() => validateCors({ origin: "https://x.example", origins: ["https://y.example"] }, "cors"), { code: "E_SECURITY_CONFIG_INVALID" });
    assert.throws(() => validateCors({ origin: ["https://x.example"] } as never, "cors"), { code: "E_SECURITY_CONFIG_INVALID" });
    assert.throws(() => validateCors({ origin: "https://x.example/path" }, "cors"), { code: "E_SECURITY_CONFIG_INVALID" });
    assert.throws(() => validateCors({ maxAge: -1 }, "cors"), { code: "E_SECURITY_CONFIG_INVALID" });
    assert.throws(() => validateCors({ credentials: "yes" } as never, "cors"), { code: "E_SECURITY_CONFIG_INVALID" });
  });
});
