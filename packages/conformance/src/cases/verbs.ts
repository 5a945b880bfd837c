import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";
import { expectAllow, expectStatus, expectText } from "../suite.js";

/** Verbs by special name, HEAD for GET, OPTIONS with Allow, 405 with Allow, 404. */
export function verbCases(s: SuiteContext): void {
  const { Base } = s.adapter;
  class Resource extends Base {
    index() {
      return "index";
    }
    get(id: string) {
      return `get ${id}`;
    }
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
    update() {
      return "update";
    }
  }
  // Kept apart from Resource: /resource/other would also match /resource/:id.
  class Plain extends Base {
    other() {
      return "other";
    }
  }
  const modules = () => [{ name: "conformance/verbs", exports: { Resource, Plain } }];
  const base = s.p("/resource");
  const item = s.p("/resource/5");

  s.group("verbs by name", modules, (test) => {
    test("index and get answer GET", async (http) => {
      expectText(await http.get(base), "index", `GET ${base}`);
      expectText(await http.get(item), "get 5", `GET ${item}`);
    });

    test("post, put, patch and delete answer their own verb", async (http) => {
      expectText(await http.send("POST", base), "post", `POST ${base}`);
      expectText(await http.send("PUT", item), "put 5", `PUT ${item}`);
      expectText(await http.send("PATCH", item), "patch 5", `PATCH ${item}`);
      expectText(await http.send("DELETE", item), "delete 5", `DELETE ${item}`);
    });

    test("update answers PATCH", async (http) => {
      expectText(await http.send("PATCH", base), "update", `PATCH ${base}`);
    });

    test("any other method name answers GET only", async (http) => {
      const path = s.p("/plain/other");
      expectText(await http.get(path), "other", `GET ${path}`);
      const post = await http.send("POST", path);
      expectStatus(post, 405, `POST ${path}`);
      expectAllow(post, ["GET", "HEAD"], `POST ${path}`);
    });

    test("every GET route answers HEAD, without a body", async (http) => {
      for (const path of [base, item, s.p("/plain/other")]) {
        const head = await http.send("HEAD", path);
        expectStatus(head, 200, `HEAD ${path}`);
        assert.equal(head.text, "", `HEAD ${path} has no body`);
      }
    });

    test("OPTIONS answers with Allow listing the verbs of the path", async (http) => {
      const onBase = await http.send("OPTIONS", base);
      assert.ok(onBase.status === 200 || onBase.status === 204, `OPTIONS ${base}: status ${onBase.status}`);
      expectAllow(onBase, ["GET", "HEAD", "POST", "PATCH"], `OPTIONS ${base}`);
      const onItem = await http.send("OPTIONS", item);
      expectAllow(onItem, ["GET", "HEAD", "PUT", "PATCH", "DELETE"], `OPTIONS ${item}`);
    });

    test("a known path with a wrong verb is 405 with Allow", async (http) => {
      const put = await http.send("PUT", base);
      expectStatus(put, 405, `PUT ${base}`);
      expectAllow(put, ["GET", "HEAD", "POST", "PATCH"], `PUT ${base}`);
      const post = await http.send("POST", item);
      expectStatus(post, 405, `POST ${item}`);
      expectAllow(post, ["GET", "HEAD", "PUT", "PATCH", "DELETE"], `POST ${item}`);
    });

    test("an unknown path is 404 whatever the verb", async (http) => {
      for (const verb of ["GET", "POST", "DELETE"]) {
        expectStatus(await http.send(verb, s.p("/nowhere")), 404, `${verb} ${s.p("/nowhere")}`);
      }
    });
  });
}
