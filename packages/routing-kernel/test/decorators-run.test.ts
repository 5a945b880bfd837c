// Proves that TC39 standard decorators really execute under the test runner (node --test with
// tsx): a decorator with a side effect runs at class definition, receives a real context, and its
// `context.metadata` lands on the class under Symbol.metadata, shared by all decorators of the
// class and inherited through the prototype chain by subclasses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { METADATA } from "../src/metadata.js";
import { restrictVerbs } from "../src/decorators.js";

const calls: string[] = [];

function record(label: string) {
  return (value: unknown, context: ClassMethodDecoratorContext | ClassDecoratorContext) => {
    calls.push(`${label}:${context.kind}:${String(context.name)}:${typeof value}`);
    (context.metadata as Record<string, unknown>)[label] = String(context.name);
  };
}

@record("onClass")
class Recorded {
  @record("outer")
  @record("inner")
  method() {
    return "ran";
  }
}

test("decorators ran at class definition, inner before outer, class last", () => {
  assert.deepEqual(calls, [
    "inner:method:method:function",
    "outer:method:method:function",
    "onClass:class:Recorded:function",
  ]);
  assert.equal(new Recorded().method(), "ran");
});

test("context.metadata is stored under Symbol.metadata on the class", () => {
  const metadata = (Recorded as unknown as Record<symbol, Record<string, unknown>>)[METADATA];
  assert.deepEqual({ ...metadata }, { inner: "method", outer: "method", onClass: "Recorded" });
});

test("a subclass's metadata inherits its parent's through the prototype chain", () => {
  @record("child")
  class Child extends Recorded {}
  const metadata = (Child as unknown as Record<symbol, Record<string, unknown>>)[METADATA]!;
  assert.equal(metadata["child"], "Child");
  assert.equal(metadata["inner"], "method");
  assert.equal(Object.hasOwn(metadata, "inner"), false);
  assert.equal(Object.getPrototypeOf(metadata), (Recorded as unknown as Record<symbol, object>)[METADATA]);
});

test("this is the standard proposal, not experimentalDecorators: the context object is passed", () => {
  let seen: unknown;
  const verb = restrictVerbs("post", ["POST"]);
  class Probe {
    @(
      (value: unknown, context: ClassMethodDecoratorContext) => {
        seen = context;
        verb(value, context);
      }
    )
    send() {}
  }
  assert.equal(new Probe().send(), undefined);
  assert.equal((seen as ClassMethodDecoratorContext).kind, "method");
  assert.equal((seen as ClassMethodDecoratorContext).name, "send");
  assert.equal(typeof (seen as ClassMethodDecoratorContext).addInitializer, "function");
});
