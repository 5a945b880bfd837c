// `fw-b :resource` in a new app outside the repository: the shared cases, with fw-b's names, Pug
// pages, paths without trailing slashes, and the page reached from fw-b's menu. Runs the built CLI
// (dist), like cli-e2e.test.ts.
import { fileURLToPath } from "node:url";
import {
  type ResourceGeneratorSubject,
  resourceGeneratorCases,
  resourceLiveCases,
  resourceReferenceCases,
} from "@fwkit/test-servers/framework-cases";

const subject: ResourceGeneratorSubject = {
  name: "fw-b",
  bin: fileURLToPath(new URL("../bin/fw-b.js", import.meta.url)),
  builtMain: fileURLToPath(new URL("../dist/cli/main.js", import.meta.url)),
  commands: { init: ":init", resource: ":resource", routes: ":routes", serve: ":serve", migrate: ":migrate" },
  templateExtension: "pug",
  scaffoldModel: { name: "Product", clash: /create_products\.ts \(the products table\)/ },
  scaffoldTests: 4,
  trailingSlash: false,
  fieldId: (field) => field,
  flash: ".fwb-flash",
  heading: "main h1",
  // The generated page joins fw-b's menu: reach it as a user would.
  openList: async (page, base, list) => {
    await page.goto(`${base}/`);
    await Promise.all([page.waitForURL(list), page.locator("nav").getByRole("link", { name: "Todos" }).click()]);
  },
};

resourceGeneratorCases(subject);
// project:references: a foreign key, its relation, a select of the projects, errors on the field.
resourceReferenceCases(subject);
// --live: the list page updates as rows change, in Chromium; without the flag nothing realtime.
resourceLiveCases(subject);
