// Importing fw-a (and fw-a/testing), and running an app that configures no optional backend, loads
// none of the backends' drivers: the shared cases of @fwkit/test-servers/framework-cases.
import { fileURLToPath } from "node:url";
import { lazyImportCases } from "@fwkit/test-servers/framework-cases";

lazyImportCases({
  name: "fw-a",
  entries: ["fw-a/testing"],
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  fixtureApp: fileURLToPath(new URL("./fixture-app", import.meta.url)),
});
