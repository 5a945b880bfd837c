import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { bareOrCalled, isDecoratorCall, setTag } from "../src/decorators.js";
import { readMethodMetadata } from "../src/metadata.js";
import { codeOf, json, request, View } from "./helpers.js";
import { RESPONSE_KIND_TAG } from "../src/response-kind.js";

describe("verb decorators", () => {
  test("restrict to the listed verbs; stacking adds verbs in canonical order", () => {
    class Form extends View {
      @request.post
      @request.get
      submit() {}
      // biome-ignore format: esbuild parses a decorator named `delete` only in parentheses
      @(request.delete)
      @request.put
      // biome-ignore format: esbuild parses a decorator named `delete` only in parentheses
      @(request.delete)
      twice() {}
      @request.all
      any() {}
    }
    assert.deepEqual(readMethodMetadata(Form, Form, "submit")?.verbs, ["GET", "POST"]);
    assert.deepEqual(readMethodMetadata(Form, Form, "twice")?.verbs, ["PUT", "DELETE"]);
    assert.deepEqual(readMethodMetadata(Form, Form, "any")?.verbs, ["GET", "POST", "PUT", "PATCH", "DELETE"]);
  });

  test("order relative to a route decorator does not matter", () => {
    class Form extends View {
      @request.post
      @request.route("/send")
      before() {}
      @request.route("/send")
      @request.post
      after() {}
    }
    const before = readMethodMetadata(Form, Form, "before");
    const after = readMethodMetadata(Form, Form, "after");
    assert.deepEqual([before?.verbs, before?.paths], [["POST"], ["/send"]]);
    assert.deepEqual([after?.verbs, after?.paths], [["POST"], ["/send"]]);
  });

  test("refuse static methods, getters and fields with E_INVALID_DECORATOR_TARGET", () => {
    const onStatic = codeOf(() => {
      class Bad extends View {
        @request.post
        static make() {}
      }
      return Bad;
    });
    assert.equal(onStatic.code, "E_INVALID_DECORATOR_TARGET");
    assert.match(onStatic.message, /@request\.post cannot decorate a static method/);
    const onGetter = codeOf(() => {
      class Bad extends View {
        @(request.get as unknown as (value: unknown, context: ClassGetterDecoratorContext) => void)
        get value() {
          return 1;
        }
      }
      return Bad;
    });
    assert.equal(onGetter.code, "E_INVALID_DECORATOR_TARGET");
    assert.match(onGetter.message, /getter/);
  });

  test("a verb decorator on a class is refused", () => {
    const error = codeOf(() => {
      @(request.post as unknown as (value: unknown, context: ClassDecoratorContext) => void)
      class Bad extends View {}
      return Bad;
    });
    assert.equal(error.code, "E_INVALID_DECORATOR_TARGET");
    assert.match(error.message, /class/);
  });
});

describe("route decorator", () => {
  test("several route decorators are kept in written order", () => {
    class Pages extends View {
      @request.route("/first")
      @request.route("/second")
      @request.route("/third")
      many() {}
    }
    assert.deepEqual(readMethodMetadata(Pages, Pages, "many")?.paths, ["/first", "/second", "/third"]);
  });

  test("an invalid path is refused when the class is declared", () => {
    const error = codeOf(() => {
      class Bad extends View {
        @request.route("/a b")
        spaced() {}
      }
      return Bad;
    });
    assert.equal(error.code, "E_INVALID_ROUTE_PATH");
    assert.match(error.message, /spaced\(\)/);
  });
});

describe("setTag", () => {
  test("method tags accumulate; class tags are separate", () => {
    @setTag("menu", "navTitle", "Blog")
    class Blog extends View {
      @json
      @setTag("csrf", "csrfExempt", true)
      feed() {}
    }
    assert.deepEqual(readMethodMetadata(Blog, Blog, "feed")?.tags, { responseKind: "json", csrfExempt: true });
  });
});

describe("bareOrCalled / isDecoratorCall", () => {
  test("the same decorator works bare and called", () => {
    const renderJson = bareOrCalled(() => setTag("renderJson", RESPONSE_KIND_TAG, "json"));
    class Api extends View {
      @renderJson
      bare() {}
      @renderJson()
      called() {}
    }
    assert.deepEqual(readMethodMetadata(Api, Api, "bare")?.tags, { responseKind: "json" });
    assert.deepEqual(readMethodMetadata(Api, Api, "called")?.tags, { responseKind: "json" });
  });

  test("isDecoratorCall recognises only (value, context)", () => {
    assert.equal(isDecoratorCall([]), false);
    assert.equal(isDecoratorCall(["/path"]), false);
    assert.equal(isDecoratorCall([() => {}, { kind: "method" }]), false);
    assert.equal(isDecoratorCall([() => {}, { kind: "method", metadata: {} }]), true);
  });
});
