import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CookieJar } from "../../src/testing/cookie-jar.js";

describe("test client: cookies", () => {
  test("the cookie jar keeps, replaces and drops cookies as Set-Cookie says", () => {
    const jar = new CookieJar();
    assert.equal(jar.header(), undefined);
    jar.store(["sid=abc; path=/; httponly", "sid.sig=xyz; path=/", "lang=fr"]);
    assert.equal(jar.header(), "sid=abc; sid.sig=xyz; lang=fr");
    jar.store("sid=def; path=/");
    assert.equal(jar.get("sid"), "def");
    jar.store(["lang=; expires=Thu, 01 Jan 1970 00:00:00 GMT", "sid.sig=gone; Max-Age=0"]);
    assert.deepEqual(jar.names(), ["sid"]);
    jar.clear();
    assert.equal(jar.header(), undefined);
  });
});
