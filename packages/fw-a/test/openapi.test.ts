// fw-a's OpenAPI document (the shared cases of @fwkit/test-servers/framework-cases against
// test/api-app), and what only fw-a's fixture has: a body schema that cannot be converted.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { openApiCases } from "@fwkit/test-servers/framework-cases";
import { app as definition } from "./api-app/app.js";

const root = fileURLToPath(new URL("./api-app", import.meta.url));
const bin = fileURLToPath(new URL("../bin/fw-a.js", import.meta.url));

openApiCases({
  name: "fw-a",
  create: (options) => definition.create(options as never),
  trailingSlash: true,
  routes: [bin, "routes", "--root", root],
  // fw-a's URLs end with "/" (its convention: `/posts/` answers, `/posts` redirects there), so the
  // document's paths do too; every other recommended Redocly rule applies.
  lintOff: ["no-path-trailing-slash"],
  own({ document, p, routes }) {
    test("a body schema that cannot be converted is documented without it, and the routes command warns about it", () => {
      assert.ok(
        document().paths[p("/posts/note")]!["post"]!.requestBody!.content["application/json"],
        "documented without its schema",
      );
      assert.match(
        routes(["--openapi"]).stderr,
        /warning: Posts\.note: its body schema is left out of the OpenAPI document/,
      );
    });
  },
});
