import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { resolveSecurityConfig, SECURITY_DEFAULTS, validateCors } from "../src/config.js";

// Random keys of 32 bytes (base64url), as the docs tell users to make them; made here, never
// written down (a key spelled out in this repository is refused in production).
const key = () => randomBytes(32).toString("base64url");
const STRONG = key();
const OLD_1 = key();
const OLD_2 = key();

describe("production secrets", () => {
  test("a short or placeholder secretKey, fallback or jwtSecret is E_WEAK_SECRET_KEY naming it", () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ secretKey: "x" }, /SECRET_KEY/],
      [{ secretKey: "replace-with-a-long-random-string" }, /SECRET_KEY.*placeholder/],
      [{ secretKey: STRONG, secretKeyFallbacks: [OLD_1, "old-1"] }, /secretKeyFallbacks\[1\]/],
      [{ secretKey: STRONG, jwtSecret: "replace-with-a-long-random-string" }, /jwtSecret.*placeholder/],
      [{ secretKey: STRONG, jwtSecret: "jwt-secret" }, /jwtSecret/],
      // The tutorials' keys: long enough, but worth a few dozen bits (a forged HS256 JWT was accepted with one).
      [{ secretKey: STRONG, jwtSecret: "your-256-bit-secret-your-256-bit-secret" }, /jwtSecret.*bits of guessing/],
      [{ secretKey: "keyboard cat keyboard cat keyboard cat" }, /SECRET_KEY.*bits of guessing/],
    ];
    for (const [config, message] of cases) {
      assert.throws(
        () => resolveSecurityConfig({ env: "production", ...config }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_WEAK_SECRET_KEY");
          assert.match(error.message, message);
          assert.match(error.message, /openssl rand -base64 32/);
          return true;
        },
      );
    }
    assert.equal(resolveSecurityConfig({ env: "production", secretKey: STRONG, jwtSecret: OLD_1 }).jwtSecret, OLD_1);
    assert.equal(
      resolveSecurityConfig({ env: "test", secretKey: "k", jwtSecret: "j" }).secretKey,
      "k",
      "development and tests keep short keys",
    );
  });
});

describe("resolveSecurityConfig", () => {
  test("defaults, and plugin options win over the app config", () => {
    const config = resolveSecurityConfig(
      { env: "test", secretKey: "k", sessionUrl: "redis://127.0.0.1:6379" },
      { sessionUrl: "cookie", bcryptCost: 10 },
    );
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
      secretKey: STRONG,
      bcryptCost: "13",
      cookieSecure: "false",
      secretKeyFallbacks: `${OLD_1}, ${OLD_2}`,
      jwtExpiresIn: "900",
    });
    assert.equal(config.bcryptCost, 13);
    assert.equal(config.cookieSecure, false);
    assert.deepEqual(config.secretKeyFallbacks, [OLD_1, OLD_2]);
    assert.equal(config.jwtExpiresIn, 900);
    assert.equal(
      resolveSecurityConfig({ env: "production", secretKey: STRONG }).cookieSecure,
      true,
      "Secure by default in production",
    );
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
        (error: Error & { code?: string }) =>
          error.code === "E_SECURITY_CONFIG_INVALID" && error.message.includes(`"${key}"`),
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

describe("CORS settings", () => {
  test("origin, the documented form, is one allowed origin", () => {
    assert.deepEqual(validateCors({ origin: "https://x.example" }, "@cors(options)"), {
      origins: ["https://x.example"],
    });
    assert.deepEqual(validateCors({ origin: "*" }, "@cors(options)"), { origins: "*" });
  });

  test("an unknown key is E_UNKNOWN_OPTION with a suggestion; wrong types and origin with origins are refused", () => {
    assert.throws(
      () => validateCors({ orign: "https://x.example" } as never, "@cors(options)"),
      /Did you mean "origin"\?/,
    );
    assert.throws(() => validateCors({ origin: "https://x.example", origins: ["https://y.example"] }, "cors"), {
      code: "E_SECURITY_CONFIG_INVALID",
    });
    assert.throws(() => validateCors({ origin: ["https://x.example"] } as never, "cors"), {
      code: "E_SECURITY_CONFIG_INVALID",
    });
    assert.throws(() => validateCors({ origin: "https://x.example/path" }, "cors"), {
      code: "E_SECURITY_CONFIG_INVALID",
    });
    assert.throws(() => validateCors({ maxAge: -1 }, "cors"), { code: "E_SECURITY_CONFIG_INVALID" });
    assert.throws(() => validateCors({ credentials: "yes" } as never, "cors"), { code: "E_SECURITY_CONFIG_INVALID" });
  });
});
