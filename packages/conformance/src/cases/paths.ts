import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";
import { expectStatus, expectText } from "../suite.js";

/** Class prefixes, the Index root, method segments and the slash policy. */
export function pathCases(s: SuiteContext): void {
  const { Base } = s.adapter;
  class Index extends Base {
    index() {
      return "root";
    }
    aboutUs() {
      return "about us";
    }
    hello_world() {
      return "hello world";
    }
  }
  class UserAccount extends Base {
    index() {
      return "user account";
    }
  }
  class HTTPServer extends Base {
    uptime() {
      return "uptime";
    }
  }
  class APIDocs extends Base {
    index() {
      return "api docs";
    }
  }
  class Api2Users extends Base {
    index() {
      return "api2 users";
    }
  }
  class Blog extends Base {
    index() {
      return "blog";
    }
    comments(id: string) {
      return `comment ${id}`;
    }
  }
  const modules = () => [
    { name: "conformance/paths", exports: { Index, UserAccount, HTTPServer, APIDocs, Api2Users, Blog } },
  ];

  s.group("generated paths", modules, (test) => {
    test("the Index class serves the root /", async (http) => {
      expectText(await http.get("/"), "root", "GET /");
    });

    test("a class prefix is the kebab-case class name, no suffix stripped", async (http) => {
      expectText(await http.get(s.p("/user-account")), "user account", "UserAccount");
      expectText(await http.get(s.p("/http-server/uptime")), "uptime", "HTTPServer");
      expectText(await http.get(s.p("/api-docs")), "api docs", "APIDocs");
      expectText(await http.get(s.p("/api2-users")), "api2 users", "Api2Users");
      expectText(await http.get(s.p("/blog")), "blog", "Blog");
    });

    test("a method segment is the kebab-case method name (aboutUs, hello_world)", async (http) => {
      expectText(await http.get(s.p("/about-us")), "about us", "aboutUs");
      expectText(await http.get(s.p("/hello-world")), "hello world", "hello_world");
    });

    test("index adds no segment; a parameter adds one (/blog/comments/42)", async (http) => {
      expectText(await http.get(s.p("/blog/comments/42")), "comment 42", "Blog.comments");
      expectStatus(await http.get(s.p("/blog/index")), 404, "no /blog/index segment");
    });

    test("generated paths follow the slash policy of the framework", async (http) => {
      // The canonical form answers 200; the other form is not served as a page (it redirects).
      for (const path of ["/about-us", "/blog", "/blog/comments/42"]) {
        expectStatus(await http.get(s.p(path)), 200, `GET ${s.p(path)}`);
        const twin = await http.get(s.twin(path));
        assert.notEqual(twin.status, 200, `GET ${s.twin(path)} answered 200; only ${s.p(path)} should`);
      }
    });

    test("an unknown path is 404", async (http) => {
      expectStatus(await http.get(s.p("/no-such-view")), 404, "unknown class");
      expectStatus(await http.get(s.p("/blog/no-such-method")), 404, "unknown method");
      expectStatus(await http.get(s.p("/blog/comments/42/extra")), 404, "extra segment");
    });
  });
}
