import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";
import { expectStatus, expectText } from "../suite.js";

/** One segment per parameter, in order, URL-decoded strings, optional trailing segments. */
export function parameterCases(s: SuiteContext): void {
  const { Base } = s.adapter;
  class Params extends Base {
    pair(first: string, second: string) {
      return `${first}|${second}`;
    }
    echo(value: string) {
      return `[${value}]`;
    }
    kind(value: unknown) {
      return `${typeof value}:${String(value)}`;
    }
    page(n = "1") {
      return `page ${n}`;
    }
    range(from: string, to = "end") {
      return `${from}..${to}`;
    }
    date(year: string, month = "01", day = "01") {
      return `${year}-${month}-${day}`;
    }
  }
  const modules = () => [{ name: "conformance/parameters", exports: { Params } }];

  s.group("parameters", modules, (test) => {
    test("parameters are passed in declaration order", async (http) => {
      expectText(await http.get(s.p("/params/pair/a/b")), "a|b", "pair a b");
      expectText(await http.get(s.p("/params/pair/b/a")), "b|a", "pair b a");
    });

    test("values arrive URL-decoded", async (http) => {
      expectText(await http.get(s.p("/params/echo/hello%20world")), "[hello world]", "%20");
      expectText(await http.get(s.p("/params/echo/caf%C3%A9")), "[café]", "UTF-8");
      expectText(await http.get(s.p("/params/echo/a%2Fb")), "[a/b]", "encoded slash");
      expectText(await http.get(s.p("/params/echo/50%25")), "[50%]", "encoded percent");
    });

    test("values arrive as strings", async (http) => {
      expectText(await http.get(s.p("/params/kind/42")), "string:42", "kind 42");
    });

    test("a missing required parameter is 404", async (http) => {
      expectStatus(await http.get(s.p("/params/pair/a")), 404, "pair with one value");
    });

    test("an empty segment never fills a parameter (404, no redirect)", async (http) => {
      for (const path of [
        "/params/echo/",
        "/params/echo//",
        "/params/pair/a/",
        "/params/pair/a//",
        "/params/pair//b",
      ]) {
        expectStatus(await http.get(path), 404, `GET ${path}`);
      }
    });

    test("a parameter with a default value is an optional segment", async (http) => {
      expectText(await http.get(s.p("/params/page")), "page 1", "page without n");
      expectText(await http.get(s.p("/params/page/3")), "page 3", "page 3");
      expectText(await http.get(s.p("/params/range/a")), "a..end", "range a");
      expectText(await http.get(s.p("/params/range/a/b")), "a..b", "range a b");
      expectStatus(await http.get(s.p("/params/range")), 404, "range without its required value");
    });

    test("several optional segments fill from the left", async (http) => {
      expectText(await http.get(s.p("/params/date/2024")), "2024-01-01", "year");
      expectText(await http.get(s.p("/params/date/2024/05")), "2024-05-01", "year month");
      expectText(await http.get(s.p("/params/date/2024/05/17")), "2024-05-17", "year month day");
    });

    test("a URL that cannot be decoded is 400, never 500", async (http) => {
      const response = await http.get(s.p("/params/echo/%E0%A4%A"));
      assert.equal(response.status, 400, `malformed escape: got ${response.status} ${response.text.slice(0, 200)}`);
    });
  });
}
