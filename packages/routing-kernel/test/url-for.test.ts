import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { codeOf, request, tableOf, View } from "./helpers.js";

class Index extends View {
  index() {}
}
class Blog extends View {
  index() {}
  comments(id: string) {
    return id;
  }
  list(year: string, month = "1", day = "1") {
    return year + month + day;
  }
  @request.route("/tag/:name")
  tagged(name: string) {
    return name;
  }
}
@request.route("/account/:accountId")
class Account extends View {
  orders(accountId: string, orderId: string) {
    return accountId + orderId;
  }
}

const fwb = tableOf({ Index, Blog, Account }, false);
const fwa = tableOf({ Index, Blog, Account }, true);

describe("urlFor", () => {
  test("named parameters, both slash policies", () => {
    assert.equal(fwb.urlFor("Blog.comments", { id: 42 }), "/blog/comments/42");
    assert.equal(fwa.urlFor("Blog.comments", { id: 42 }), "/blog/comments/42/");
    assert.equal(fwb.urlFor("Index"), "/");
    assert.equal(fwa.urlFor("Blog"), "/blog/");
  });

  test("by class and method", () => {
    assert.equal(fwb.urlFor(Blog, "comments", { id: 7 }), "/blog/comments/7");
    assert.equal(fwb.urlFor(Blog), "/blog");
  });

  test("positional parameters in declaration order, prefix parameters included", () => {
    assert.equal(fwb.urlFor("Blog.comments", [42]), "/blog/comments/42");
    assert.equal(fwb.urlFor("Account.orders", [7, 9]), "/account/7/orders/9");
    assert.equal(fwb.urlFor("Account.orders", { orderId: 9, accountId: 7 }), "/account/7/orders/9");
  });

  test("extra named values become the query string", () => {
    assert.equal(fwb.urlFor("Blog.comments", { id: 42, sort: "new", page: 2 }), "/blog/comments/42?sort=new&page=2");
    assert.equal(fwa.urlFor("Blog", { q: "a b&c" }), "/blog/?q=a+b%26c");
  });

  test("values are URL-encoded", () => {
    assert.equal(fwb.urlFor("Blog.comments", { id: "a/b c?é" }), "/blog/comments/a%2Fb%20c%3F%C3%A9");
    assert.equal(fwb.urlFor("Blog.tagged", { name: "x y" }), "/blog/tag/x%20y");
  });

  test("optional segments: the longest pattern whose values are all given", () => {
    assert.equal(fwb.urlFor("Blog.list", { year: 2024 }), "/blog/list/2024");
    assert.equal(fwb.urlFor("Blog.list", { year: 2024, month: 5 }), "/blog/list/2024/5");
    assert.equal(fwa.urlFor("Blog.list", [2024, 5, 3]), "/blog/list/2024/5/3/");
    assert.equal(fwb.urlFor("Blog.list", { year: 2024, month: undefined, day: null }), "/blog/list/2024");
  });

  test("a missing required parameter is E_MISSING_ROUTE_PARAMETER naming it", () => {
    const error = codeOf(() => fwb.urlFor("Blog.comments"));
    assert.equal(error.code, "E_MISSING_ROUTE_PARAMETER");
    assert.match(error.message, /Blog\.comments/);
    assert.match(error.message, /"id"/);
    assert.match(codeOf(() => fwb.urlFor("Account.orders", { orderId: 1 })).message, /"accountId"/);
  });

  test("a later optional value without the earlier one names the gap instead of moving it to the query", () => {
    const error = codeOf(() => fwb.urlFor("Blog.list", { year: 2024, day: 3 }));
    assert.equal(error.code, "E_MISSING_ROUTE_PARAMETER");
    assert.match(error.message, /"month"/);
  });

  test("an unknown route is E_UNKNOWN_ROUTE", () => {
    assert.equal(codeOf(() => fwb.urlFor("Blog.nothing")).code, "E_UNKNOWN_ROUTE");
  });
});
