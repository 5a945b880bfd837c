import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { bareOrCalled, setTag } from "../src/decorators.js";
import { checkOptionKeys, closestName } from "../src/options.js";

describe("closestName", () => {
  test("suggests the known name a typo or a singular/plural slip is closest to", () => {
    assert.equal(closestName("origin", ["origins", "credentials", "maxAge"]), "origins");
    assert.equal(closestName("sesionUrl", ["sessionUrl", "secretKey"]), "sessionUrl");
    assert.equal(closestName("MAXAGE", ["origins", "maxAge"]), "maxAge");
  });

  test("a name one letter past a key is that key, not a shorter key it starts with", () => {
    assert.equal(closestName("environmentsx", ["env", "environments"]), "environments");
    assert.equal(closestName("secretKeyFallbacksx", ["secretKey", "secretKeyFallbacks"]), "secretKeyFallbacks");
    assert.equal(closestName("en", ["env", "environments"]), "env");
  });

  test("suggests nothing when no known name is close", () => {
    assert.equal(closestName("banana", ["origins", "credentials"]), undefined);
  });
});

describe("checkOptionKeys", () => {
  test("accepts known keys and no options", () => {
    checkOptionKeys("@cors(options)", { origins: "*" }, ["origins"]);
    checkOptionKeys("@cors(options)", undefined, ["origins"]);
  });

  test("an unknown key is E_UNKNOWN_OPTION naming the known keys and the closest", () => {
    assert.throws(
      () => checkOptionKeys("@cors(options)", { origin: "https://x.example" }, ["origins", "credentials"]),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_UNKNOWN_OPTION");
        assert.match(error.message, /@cors\(options\) has no option "origin"/);
        assert.match(error.message, /Did you mean "origins"\?/);
        assert.match(error.message, /origins, credentials/);
        return true;
      },
    );
  });

  test("a value that is not a plain object is refused", () => {
    assert.throws(() => checkOptionKeys("@x(options)", 5, ["a"]), { code: "E_UNKNOWN_OPTION" });
    assert.throws(() => checkOptionKeys("@x(options)", ["a"], ["a"]), { code: "E_UNKNOWN_OPTION" });
  });
});

describe("bareOrCalled decorators take no options", () => {
  const exempt = bareOrCalled(() => setTag("exempt", "test.exempt", true), "exempt");

  test("bare and called with nothing both work", () => {
    assert.equal(typeof exempt(), "function");
  });

  test("called with options is a start-up error naming the decorator", () => {
    assert.throws(
      () => (exempt as unknown as (options: unknown) => unknown)({ paths: ["/x"] }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_UNKNOWN_OPTION");
        assert.match(error.message, /@exempt\(\) takes no options/);
        return true;
      },
    );
  });
});
