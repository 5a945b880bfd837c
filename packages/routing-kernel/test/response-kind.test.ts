import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  declaredResponseKind,
  isDataRoute,
  RESPONSE_KIND_TAG,
  responseKindOf,
  responseKindTag,
} from "../src/response-kind.js";
import { tableOf, View } from "./helpers.js";

const tagged = (kind: unknown) => ({ tags: { [RESPONSE_KIND_TAG]: kind } });

describe("response kind", () => {
  test("an undeclared or unknown kind is html; json and xml are data", () => {
    assert.equal(responseKindOf(undefined), "html");
    assert.equal(responseKindOf({ tags: {} }), "html");
    assert.equal(responseKindOf(tagged("csv")), "html");
    assert.equal(declaredResponseKind(tagged("csv")), undefined);
    assert.equal(declaredResponseKind(tagged("json")), "json");
    assert.equal(responseKindOf(tagged("xml")), "xml");
    assert.equal(isDataRoute(tagged("json")), true);
    assert.equal(isDataRoute(tagged("xml")), true);
    assert.equal(isDataRoute(tagged("html")), false);
    assert.equal(isDataRoute(undefined), false);
  });

  test("responseKindTag declares the kind on a method", () => {
    const asJson = responseKindTag("asJson", "json");
    class Api extends View {
      @asJson
      index(): unknown {
        return [];
      }
    }
    assert.equal(responseKindOf(tableOf({ Api }).routes[0]), "json");
  });
});
