import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";
import type { ClientResponse } from "../client.js";
import { expectStatus, expectText } from "../suite.js";

/** Asserts a 308 whose Location is `target` (absolute or relative). */
function expectRedirect(response: ClientResponse, target: string, what: string): void {
  expectStatus(response, 308, what);
  const location = new URL(String(response.headers["location"] ?? ""), "http://127.0.0.1");
  assert.equal(
    `${location.pathname}${location.search}`,
    target,
    `${what}: Location is ${String(response.headers["location"])}`,
  );
}

/** 308 to the canonical path, query kept; a path that matches as it is never redirects. */
export function slashCases(s: SuiteContext): void {
  const { Base, decorators: d } = s.adapter;
  class Index extends Base {
    index() {
      return "root";
    }
  }
  class Blog extends Base {
    index() {
      return "blog";
    }
    post() {
      return "posted";
    }
    comments(id: string) {
      return `comment ${id}`;
    }
    @d.route("/exact")
    exact() {
      return "exact";
    }
    @d.route("/both")
    withoutSlash() {
      return "without slash";
    }
    @d.route("/both/")
    withSlash() {
      return "with slash";
    }
  }
  const modules = () => [{ name: "conformance/slashes", exports: { Index, Blog } }];

  s.group("trailing slash", modules, (test) => {
    test("the other slash form redirects 308 to the canonical path", async (http) => {
      const canonical = s.p("/blog/comments/42");
      expectRedirect(await http.get(s.twin("/blog/comments/42")), canonical, `GET ${s.twin("/blog/comments/42")}`);
      expectRedirect(await http.get(s.twin("/blog")), s.p("/blog"), `GET ${s.twin("/blog")}`);
    });

    test("the redirect keeps the query string", async (http) => {
      const response = await http.get(`${s.twin("/blog/comments/42")}?page=2&q=a%20b`);
      expectRedirect(response, `${s.p("/blog/comments/42")}?page=2&q=a%20b`, "redirect with a query");
    });

    test("308 keeps the verb: a POST to the other form is redirected, not refused", async (http) => {
      expectRedirect(await http.send("POST", s.twin("/blog")), s.p("/blog"), `POST ${s.twin("/blog")}`);
      expectText(await http.send("POST", s.p("/blog")), "posted", `POST ${s.p("/blog")}`);
    });

    test("the root is served as it is", async (http) => {
      expectText(await http.get("/"), "root", "GET /");
    });

    test("a route decorator path is canonical as written; its other form redirects to it", async (http) => {
      expectText(await http.get("/blog/exact"), "exact", "GET /blog/exact");
      expectRedirect(await http.get("/blog/exact/"), "/blog/exact", "GET /blog/exact/");
    });

    test("a path that matches a route as it is is never redirected", async (http) => {
      expectText(await http.get("/blog/both"), "without slash", "GET /blog/both");
      expectText(await http.get("/blog/both/"), "with slash", "GET /blog/both/");
    });

    test("an unknown path is 404 in either form, never redirected", async (http) => {
      expectStatus(await http.get("/nowhere"), 404, "GET /nowhere");
      expectStatus(await http.get("/nowhere/"), 404, "GET /nowhere/");
    });
  });
}
