import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { METADATA, ownMetadataObject, prefixOwnerOf, readClassMetadata, readMethodMetadata } from "../src/metadata.js";
import { json, request, View } from "./helpers.js";
import { setTag } from "../src/decorators.js";

describe("metadata under Symbol.metadata", () => {
  test("Symbol.metadata is polyfilled with the registry symbol", () => {
    assert.equal(typeof METADATA, "symbol");
    assert.equal((Symbol as unknown as { metadata: symbol }).metadata, METADATA);
    // Either the native symbol or the one esbuild and TypeScript fall back to.
    assert.ok(METADATA === Symbol.for("Symbol.metadata") || METADATA.description === "Symbol.metadata");
  });

  test("a decorated class owns a metadata object; an undecorated one has none of its own", () => {
    class Decorated extends View {
      @request.post
      send() {}
    }
    class Plain extends View {}
    assert.equal(typeof ownMetadataObject(Decorated), "object");
    assert.equal(ownMetadataObject(Plain), undefined);
  });

  test("method metadata: verbs, paths and tags recorded by decorators", () => {
    class Blog extends View {
      @request.get
      @request.post
      @request.route("/a")
      @request.route("/b")
      @json
      many() {}
    }
    const meta = readMethodMetadata(Blog, Blog, "many");
    assert.deepEqual(meta?.verbs, ["GET", "POST"]);
    assert.deepEqual(meta?.paths, ["/a", "/b"]);
    assert.deepEqual(meta?.tags, { responseKind: "json" });
    assert.equal(readMethodMetadata(Blog, Blog, "missing"), undefined);
  });

  test("class metadata: the prefix and the tags are inherited", () => {
    @request.route("/api")
    @json
    class Api extends View {}
    @setTag("menu", "navTitle", "Docs")
    class Docs extends Api {}
    class Undecorated extends Docs {}
    @request.route("/v2")
    class V2 extends Docs {}
    assert.deepEqual(readClassMetadata(Api), { prefix: "/api", tags: { responseKind: "json" } });
    assert.deepEqual(readClassMetadata(Docs), { prefix: "/api", tags: { responseKind: "json", navTitle: "Docs" } });
    // Regression: a subclass without any decorator lost its ancestors' class tags.
    assert.deepEqual(readClassMetadata(Undecorated), {
      prefix: "/api",
      tags: { responseKind: "json", navTitle: "Docs" },
    });
    assert.deepEqual(readClassMetadata(V2), { prefix: "/v2", tags: { responseKind: "json", navTitle: "Docs" } });
    assert.equal(readClassMetadata(Api).prefix, "/api", "a subclass's route never reaches its parent");
    assert.equal(prefixOwnerOf(Undecorated), Api);
    assert.equal(prefixOwnerOf(V2), V2);
    assert.equal(prefixOwnerOf(View), undefined);
  });

  test("a subclass's decorators never leak into its parent", () => {
    @setTag("t", "k", "parent")
    class Parent extends View {
      @request.post
      send() {}
    }
    @setTag("t", "k", "child")
    class Child extends Parent {
      @request.put
      other() {}
    }
    assert.deepEqual(readClassMetadata(Parent).tags, { k: "parent" });
    assert.deepEqual(readClassMetadata(Child).tags, { k: "child" });
    assert.equal(readMethodMetadata(Parent, Parent, "other"), undefined);
    assert.deepEqual(readMethodMetadata(Child, Parent, "send")?.verbs, ["POST"]);
  });

  test("an inherited method keeps its decorators; an override without decorators does not inherit them", () => {
    class Parent extends View {
      @request.post
      send() {}
      @request.put
      keep() {}
    }
    class Child extends Parent {
      override send() {}
    }
    class DecoratedChild extends Parent {
      override send() {}
      // biome-ignore format: esbuild parses a decorator named `delete` only in parentheses
      @(request.delete)
      drop() {}
    }
    assert.deepEqual(readMethodMetadata(Child, Parent, "keep")?.verbs, ["PUT"]);
    assert.equal(readMethodMetadata(Child, Child, "send"), undefined);
    assert.equal(readMethodMetadata(DecoratedChild, DecoratedChild, "send"), undefined);
    assert.deepEqual(readMethodMetadata(DecoratedChild, Parent, "keep")?.verbs, ["PUT"]);
  });

  test("an override with its own decorators starts fresh", () => {
    class Parent extends View {
      @request.post
      @request.route("/p")
      send() {}
    }
    class Child extends Parent {
      @request.put
      override send() {}
    }
    assert.deepEqual(readMethodMetadata(Child, Child, "send")?.verbs, ["PUT"]);
    assert.deepEqual(readMethodMetadata(Child, Child, "send")?.paths, []);
  });
});
