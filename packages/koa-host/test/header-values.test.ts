import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeLocation, safeHeaders } from "../src/header-values.js";

test("encodeLocation percent-encodes CR, LF and other unsafe characters of a redirect target", () => {
  assert.equal(encodeLocation("/next\r\nSet-Cookie: a=b"), "/next%0D%0ASet-Cookie:%20a=b");
  assert.equal(encodeLocation("/a\0b\tc"), "/a%00b%09c");
  assert.equal(encodeLocation("/café/中"), "/caf%C3%A9/%E4%B8%AD");
  assert.equal(encodeLocation("/lone\ud800"), "/lone%EF%BF%BD");
});

test("encodeLocation keeps valid targets as written, escapes included", () => {
  for (const target of ["/", "/blog/?page=2&q=a%20b#top", "https://example.test/x?y=%2F", "/a%0Db"])
    assert.equal(encodeLocation(target), target);
});

test("safeHeaders encodes Location and refuses a line break in any other header with a 400", () => {
  assert.deepEqual(safeHeaders({ Location: "/x\ny", "X-Ok": "fine" }), { Location: "/x%0Ay", "X-Ok": "fine" });
  assert.throws(
    () => safeHeaders({ "Content-Disposition": 'attachment; filename="a\r\nb"' }),
    (error: { code?: string; status?: number }) => {
      assert.equal(error.code, "E_BAD_HEADER_VALUE");
      assert.equal(error.status, 400);
      return true;
    },
  );
});
