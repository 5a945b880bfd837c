import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { codeOf, json, request, tableOf, View } from "./helpers.js";
import { setTag } from "../src/decorators.js";
import { RESPONSE_KIND_TAG } from "../src/response-kind.js";

describe("verb decorators in the table", () => {
  class Blog extends View {
    @request.post
    comment(id: string) {
      return id;
    }
    @request.get
    @request.post
    submit() {}
    @request.all
    any() {}
  }
  class Twice extends View {
    @request.route("/send")
    @request.put
    routeFirst() {}
    @request.put
    @request.route("/send")
    verbFirst() {}
  }

  test("restrict verbs and keep the generated path and parameters", () => {
    const route = tableOf({ Blog }).find("Blog.comment");
    assert.deepEqual(route.verbs, ["POST"]);
    assert.deepEqual(route.patterns, ["/blog/comment/:id"]);
    assert.deepEqual(
      route.parameters.map((p) => p.name),
      ["id"],
    );
  });

  test("stacking adds verbs; all stands for every verb", () => {
    const table = tableOf({ Blog });
    assert.deepEqual(table.find("Blog.submit").verbs, ["GET", "POST"]);
    assert.deepEqual(table.find("Blog.any").verbs, ["GET", "POST", "PUT", "PATCH", "DELETE"]);
  });

  test("order relative to a route decorator does not matter", () => {
    class Pair extends View {
      @request.route("/send")
      @request.put
      routeFirst() {}
      @request.post
      @request.route("/send")
      verbFirst() {}
    }
    const table = tableOf({ Pair });
    assert.deepEqual(
      [table.find("Pair.routeFirst").verbs, table.find("Pair.routeFirst").patterns],
      [["PUT"], ["/pair/send"]],
    );
    assert.deepEqual(
      [table.find("Pair.verbFirst").verbs, table.find("Pair.verbFirst").patterns],
      [["POST"], ["/pair/send"]],
    );
  });

  test("the same path restricted to one verb in two methods conflicts", () => {
    const error = codeOf(() => tableOf({ Twice }));
    assert.equal(error.code, "E_ROUTE_CONFLICT");
    assert.match(error.message, /PUT \/twice\/send/);
    assert.match(error.message, /Twice\.routeFirst\(\)/);
    assert.match(error.message, /Twice\.verbFirst\(\)/);
  });

  test("a verb decorator on a special name overrides the name's verb, not its path", () => {
    class Form extends View {
      @request.post
      @request.get
      index() {}
    }
    const route = tableOf({ Form }).find("Form.index");
    assert.deepEqual([route.verbs, route.patterns], [["GET", "POST"], ["/form"]]);
  });
});

describe("route decorator on a method", () => {
  test("replaces the generated segment and parameter segments, relative to the class prefix", () => {
    class Docs extends View {
      @request.route("/page/:slug")
      show(slug: string, lang = "en") {
        return slug + lang;
      }
      @request.route("feed.xml")
      feed() {}
    }
    const table = tableOf({ Docs }, true);
    const show = table.find("Docs.show");
    assert.deepEqual(show.patterns, ["/docs/page/:slug"]);
    assert.equal(show.generated, false);
    assert.deepEqual(show.parameters, [
      { name: "slug", optional: false, source: "path" },
      { name: "lang", optional: true, source: "none" },
    ]);
    // A path given to a route decorator is used as written: no slash added, even under fw-a.
    assert.deepEqual(table.find("Docs.feed").patterns, ["/docs/feed.xml"]);
  });

  test("several route decorators give several routes, in written order", () => {
    class Pages extends View {
      @request.route("/first")
      @request.route("/second/:n")
      many(n = "1") {
        return n;
      }
    }
    const table = tableOf({ Pages });
    assert.deepEqual(table.find("Pages.many").patterns, ["/pages/first", "/pages/second/:n"]);
    assert.deepEqual(
      table.entries.map((e) => e.pattern),
      ["/pages/first", "/pages/second/:n"],
    );
    assert.equal(table.urlFor("Pages.many"), "/pages/first");
    assert.equal(table.urlFor("Pages.many", { n: 2 }), "/pages/second/2");
  });

  test("on an Index class the paths start at the root", () => {
    class Index extends View {
      @request.route("/robots.txt")
      robots() {}
    }
    assert.deepEqual(tableOf({ Index }).find("Index.robots").patterns, ["/robots.txt"]);
  });
});

describe("route decorator on a class", () => {
  @request.route("/account/:accountId")
  class Account extends View {
    index(accountId: string) {
      return accountId;
    }
    info(accountId: string) {
      return accountId;
    }
    orders(accountId: string, orderId: string) {
      return accountId + orderId;
    }
    reorder(orderId: string, accountId: string) {
      return orderId + accountId;
    }
    @request.route("/settings/:section")
    settings(section: string, accountId: string) {
      return section + accountId;
    }
  }

  test("replaces the prefix; its parameters bind by name and are not appended again", () => {
    const table = tableOf({ Account });
    assert.deepEqual(
      table.routes.map((r) => r.path),
      [
        "/account/:accountId",
        "/account/:accountId/info",
        "/account/:accountId/orders/:orderId",
        "/account/:accountId/reorder/:orderId",
        "/account/:accountId/settings/:section",
      ],
    );
    assert.deepEqual(table.find("Account.reorder").parameters, [
      { name: "orderId", optional: false, source: "path" },
      { name: "accountId", optional: false, source: "prefix" },
    ]);
    assert.deepEqual(
      table.find("Account.settings").parameters.map((p) => p.source),
      ["path", "prefix"],
    );
  });

  test("the slash policy applies to generated paths under a decorated prefix", () => {
    assert.equal(tableOf({ Account }, true).find("Account.info").path, "/account/:accountId/info/");
    assert.equal(
      tableOf({ Account }, true).urlFor("Account.orders", { accountId: 7, orderId: 9 }),
      "/account/7/orders/9/",
    );
  });

  test("a subclass inherits the class route and its parameter binding", () => {
    class SubAccount extends Account {
      invoices(accountId: string) {
        return accountId;
      }
    }
    const table = tableOf({ SubAccount });
    assert.equal(table.find("SubAccount.info").path, "/account/:accountId/info");
    assert.equal(table.find("SubAccount.invoices").path, "/account/:accountId/invoices");
    assert.deepEqual(table.find("SubAccount.invoices").parameters, [
      { name: "accountId", optional: false, source: "prefix" },
    ]);
    // Undecorated and decorated subclasses alike (a method decorator gives the subclass its own metadata).
    class Tagged extends Account {
      @request.post
      close(accountId: string) {
        return accountId;
      }
    }
    assert.equal(tableOf({ Tagged }).find("Tagged.close").path, "/account/:accountId/close");
    class Deeper extends Tagged {}
    assert.equal(tableOf({ Deeper }).find("Deeper.orders").path, "/account/:accountId/orders/:orderId");
  });

  test("a subclass's own class route overrides the inherited one", () => {
    @request.route("/team/:accountId")
    class TeamAccount extends Account {}
    const table = tableOf({ Account, TeamAccount });
    assert.equal(table.find("TeamAccount.info").path, "/team/:accountId/info");
    assert.equal(table.find("Account.info").path, "/account/:accountId/info");
    class SubTeam extends TeamAccount {}
    assert.equal(tableOf({ SubTeam }).find("SubTeam.info").path, "/team/:accountId/info");
  });

  test("parent and subclass sharing a class route conflict, naming both and the inheritance", () => {
    class SubAccount extends Account {}
    const error = codeOf(() => tableOf({ Account, SubAccount }));
    assert.equal(error.code, "E_ROUTE_CONFLICT");
    assert.match(error.message, /by Account\.index\(\) in views\/\S+ and by SubAccount\.index\(\)/);
    assert.match(
      error.message,
      /SubAccount\.index\(\) in views\/\S+ \(inherited from Account; served under the class route of Account; give SubAccount a class route of its own/,
    );
  });

  test("a root prefix", () => {
    @request.route("/")
    class Home extends View {
      index() {}
      about() {}
    }
    assert.deepEqual(
      tableOf({ Home }).routes.map((r) => r.path),
      ["/", "/about"],
    );
  });
});

describe("tags on routes", () => {
  test("class tags are overlaid by method tags and inherited by undecorated subclasses", () => {
    @json
    @setTag("menu", "navTitle", "API")
    class Api extends View {
      list() {}
      @setTag("kind", RESPONSE_KIND_TAG, "xml")
      feed() {}
    }
    class V2 extends Api {
      more() {}
    }
    const table = tableOf({ Api, V2 });
    assert.deepEqual(table.find("Api.list").tags, { responseKind: "json", navTitle: "API" });
    assert.deepEqual(table.find("Api.feed").tags, { responseKind: "xml", navTitle: "API" });
    assert.deepEqual(table.find("V2.more").tags, { responseKind: "json", navTitle: "API" });
    assert.deepEqual(table.find("V2.feed").tags, { responseKind: "xml", navTitle: "API" });
  });
});
