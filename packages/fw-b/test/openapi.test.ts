// fw-b's OpenAPI document (the shared cases of @fwkit/test-servers/framework-cases against
// test/api-app), and what only fw-b's fixture has: an XML route.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { openApiCases } from "@fwkit/test-servers/framework-cases";
import { app as definition } from "./api-app/app.js";

const root = fileURLToPath(new URL("./api-app", import.meta.url));
const bin = fileURLToPath(new URL("../bin/fw-b.js", import.meta.url));

openApiCases({
  name: "fw-b",
  create: (options) => definition.create(options as never),
  trailingSlash: false,
  routes: [bin, ":routes", "--root", root],
  own({ document }) {
    test("an XML route answers application/xml, its refusals too", () => {
      const responses = document().paths["/feed/add"]!["post"]!.responses;
      assert.ok(
        (responses["200"] as { content: Record<string, unknown> }).content["application/xml"],
        "an XML route answers application/xml",
      );
      assert.ok((responses["422"] as { content: Record<string, unknown> }).content["application/xml"]);
    });
  },
});
