import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";
import { expectAllow, expectStatus, expectText } from "../suite.js";

/** Verb decorators, route decorators on methods and classes, the JSON decorator. */
export function decoratorCases(s: SuiteContext): void {
  const { Base, decorators: d } = s.adapter;

  class Form extends Base {
    @d.post
    send(id: string) {
      return `send ${id}`;
    }
    @d.get
    @d.post
    both() {
      return "both";
    }
    @d.all
    any() {
      return "any";
    }
    @d.put
    @d.route("/put-here")
    verbFirst() {
      return "verb first";
    }
    @d.route("/patch-here")
    @d.patch
    routeFirst() {
      return "route first";
    }
    @d.options
    probe() {
      return "probe";
    }
    @d.route("/first")
    @d.route("/second/:n")
    many(n = "1") {
      return `many ${n}`;
    }
    @d.route("/feed.xml")
    feed() {
      return "feed";
    }
    @d.json
    data() {
      return { ok: true, list: [1, 2] };
    }
  }

  @d.json
  class Api extends Base {
    one(id: string) {
      return { id };
    }
  }

  @d.route("/account/:accountId")
  class Account extends Base {
    index(accountId: string) {
      return `account ${accountId}`;
    }
    orders(accountId: string, orderId: string) {
      return `account ${accountId} order ${orderId}`;
    }
    reorder(orderId: string, accountId: string) {
      return `order ${orderId} account ${accountId}`;
    }
  }

  const modules = () => [{ name: "conformance/decorators", exports: { Form, Api, Account } }];

  s.group("verb decorators", modules, (test) => {
    test("a verb decorator restricts the verb and keeps the generated path and parameters", async (http) => {
      const path = s.p("/form/send/9");
      expectText(await http.send("POST", path), "send 9", `POST ${path}`);
      const get = await http.get(path);
      expectStatus(get, 405, `GET ${path}`);
      expectAllow(get, ["POST"], `GET ${path}`);
    });

    test("stacked verb decorators add verbs", async (http) => {
      const path = s.p("/form/both");
      expectText(await http.get(path), "both", `GET ${path}`);
      expectText(await http.send("POST", path), "both", `POST ${path}`);
      expectStatus(await http.send("PUT", path), 405, `PUT ${path}`);
    });

    test("all answers GET, POST, PUT, PATCH and DELETE", async (http) => {
      const path = s.p("/form/any");
      for (const verb of ["GET", "POST", "PUT", "PATCH", "DELETE"])
        expectText(await http.send(verb, path), "any", `${verb} ${path}`);
    });

    test("verb and route decorators work in either order", async (http) => {
      expectText(await http.send("PUT", "/form/put-here"), "verb first", "PUT /form/put-here");
      expectStatus(await http.get("/form/put-here"), 405, "GET /form/put-here");
      expectText(await http.send("PATCH", "/form/patch-here"), "route first", "PATCH /form/patch-here");
      expectStatus(await http.get("/form/patch-here"), 405, "GET /form/patch-here");
    });

    test("an options decorator routes OPTIONS to the method", async (http) => {
      const path = s.p("/form/probe");
      expectText(await http.send("OPTIONS", path), "probe", `OPTIONS ${path}`);
      expectStatus(await http.get(path), 405, `GET ${path}`);
    });
  });

  s.group("route decorators", modules, (test) => {
    test("several route decorators give several paths, relative to the class prefix", async (http) => {
      expectText(await http.get("/form/first"), "many 1", "GET /form/first");
      expectText(await http.get("/form/second/5"), "many 5", "GET /form/second/5");
      expectStatus(await http.get(s.p("/form/many")), 404, "the generated path is replaced");
    });

    test("a path given to a route decorator is used as written", async (http) => {
      expectText(await http.get("/form/feed.xml"), "feed", "GET /form/feed.xml");
    });

    test("a class route replaces the prefix; its :param binds by name", async (http) => {
      expectText(await http.get(s.p("/account/7")), "account 7", "Account.index");
      expectText(await http.get(s.p("/account/7/orders/9")), "account 7 order 9", "Account.orders");
      expectText(
        await http.get(s.p("/account/7/reorder/9")),
        "order 9 account 7",
        "Account.reorder (bound by name, not position)",
      );
      expectStatus(await http.get(s.p("/account/7/orders/7/9")), 404, "the prefix parameter is not appended again");
    });
  });

  s.group("json decorator", modules, (test) => {
    test("on a method: the return value is JSON", async (http) => {
      const response = await http.get(s.p("/form/data"));
      expectStatus(response, 200, "GET /form/data");
      assert.equal(response.type, "application/json");
      assert.deepEqual(response.json(), { ok: true, list: [1, 2] });
    });

    test("on a class: every method answers JSON, path parameters included", async (http) => {
      const response = await http.get(s.p("/api/one/x%20y"));
      expectStatus(response, 200, "GET /api/one/x%20y");
      assert.equal(response.type, "application/json");
      assert.deepEqual(response.json(), { id: "x y" });
    });
  });
}
