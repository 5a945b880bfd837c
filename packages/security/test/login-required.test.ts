import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loginRedirectUrl, safeNextUrl } from "../src/login-required.js";

describe("login redirects", () => {
  test("loginRedirectUrl carries the original URL in next", () => {
    assert.equal(loginRedirectUrl("/login", "/a?b=1"), "/login?next=%2Fa%3Fb%3D1");
    assert.equal(loginRedirectUrl("/auth?x=1", "/a"), "/auth?x=1&next=%2Fa");
  });

  test("safeNextUrl keeps same-site paths and refuses everything else", () => {
    for (const good of ["/", "/account", "/a/b?c=d#e"]) assert.equal(safeNextUrl(good), good);
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "account",
      "/\t/evil.example",
      // Dot segments that a browser resolves to a scheme-relative "//host".
      "/.//evil.example",
      "/..//evil.example",
      "/a/..//evil.example",
      "/%2e//evil.example",
      "/%2E%2E//evil.example",
      "/./\\evil.example",
      "",
      undefined,
      42,
      ["/"],
    ]) {
      assert.equal(safeNextUrl(bad, "/home"), "/home", JSON.stringify(bad));
    }
  });
});
