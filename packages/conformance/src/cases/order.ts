import type { SuiteContext } from "../suite.js";
import { expectText } from "../suite.js";

/** Static segments win over parameters, whatever the declaration order. */
export function orderCases(s: SuiteContext): void {
  const { Base, decorators: d } = s.adapter;
  class Items extends Base {
    get(id: string) {
      return `item ${id}`;
    }
    index() {
      return "items";
    }
    latest() {
      return "latest";
    }
    show(id: string) {
      return `show ${id}`;
    }
    @d.route("/show/new")
    fresh() {
      return "fresh";
    }
  }
  const modules = () => [{ name: "conformance/order", exports: { Items } }];

  s.group("static before parameter", modules, (test) => {
    test("a static segment wins over a parameter declared before it", async (http) => {
      expectText(await http.get(s.p("/items/latest")), "latest", "GET /items/latest");
      expectText(await http.get(s.p("/items/5")), "item 5", "GET /items/5");
      expectText(await http.get(s.p("/items")), "items", "GET /items");
    });

    test("a route decorator's static path wins over a generated parameter", async (http) => {
      expectText(await http.get("/items/show/new"), "fresh", "GET /items/show/new");
      expectText(await http.get(s.p("/items/show/7")), "show 7", "GET /items/show/7");
    });
  });
}
