import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";
import { expectStatus, expectText } from "../suite.js";

/** A POST with `X-HTTP-Method-Override` or `_method` is dispatched as that verb. */
export function overrideCases(s: SuiteContext): void {
  const { Base } = s.adapter;
  class Doc extends Base {
    post() {
      return "post";
    }
    put(id: string) {
      return `put ${id}`;
    }
    patch(id: string) {
      return `patch ${id}`;
    }
    delete(id: string) {
      return `delete ${id}`;
    }
  }
  class Note extends Base {
    update(id: string) {
      return `update ${id}`;
    }
  }
  const modules = () => [{ name: "conformance/override", exports: { Doc, Note } }];
  const item = s.p("/doc/5");
  const override = (verb: string) => ({ headers: { "X-HTTP-Method-Override": verb } });

  s.group("method override", modules, (test) => {
    test("X-HTTP-Method-Override: PUT, PATCH and DELETE on a POST", async (http) => {
      expectText(await http.send("POST", item, override("PUT")), "put 5", "override PUT");
      expectText(await http.send("POST", item, override("PATCH")), "patch 5", "override PATCH");
      expectText(await http.send("POST", item, override("DELETE")), "delete 5", "override DELETE");
    });

    test("UPDATE is dispatched as PATCH", async (http) => {
      const path = s.p("/note/5");
      expectText(await http.send("POST", path, override("UPDATE")), "update 5", "override UPDATE");
      expectText(await http.send("PATCH", path), "update 5", "plain PATCH");
    });

    test("the _method form field overrides too", async (http) => {
      const form = { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "_method=DELETE" };
      expectText(await http.send("POST", item, form), "delete 5", "_method=DELETE");
    });

    test("a POST without override stays a POST", async (http) => {
      expectText(await http.send("POST", s.p("/doc")), "post", "plain POST");
      expectStatus(await http.send("POST", item), 405, "POST where only PUT, PATCH, DELETE exist");
    });

    test("an unknown override verb is a 4xx, never a 500", async (http) => {
      const response = await http.send("POST", item, override("TRACE"));
      assert.ok(response.status >= 400 && response.status < 500, `override TRACE: got ${response.status}`);
    });
  });
}
