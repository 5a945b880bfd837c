// `fw-a gen:resource` in a new app outside the repository: the shared cases, with fw-a's names,
// Nunjucks pages, trailing slashes, field ids, and the page reached from the layout's nav (the
// generator adds the link). Runs the built CLI (dist), like cli.test.ts.
import { fileURLToPath } from "node:url";
import {
  type ResourceGeneratorSubject,
  resourceGeneratorCases,
  resourceLiveCases,
  resourceReferenceCases,
} from "@fwkit/test-servers/framework-cases";

const subject: ResourceGeneratorSubject = {
  name: "fw-a",
  bin: fileURLToPath(new URL("../bin/fw-a.js", import.meta.url)),
  builtMain: fileURLToPath(new URL("../dist/cli/main.js", import.meta.url)),
  commands: { init: "gen:init", resource: "gen:resource", routes: "routes", serve: "gen:serve", migrate: "db:migrate" },
  templateExtension: "html",
  scaffoldModel: { name: "Note", clash: /create_notes\.ts \(the notes table\)/ },
  scaffoldTests: 3,
  trailingSlash: true,
  fieldId: (field) => `todos-${field}`,
  flash: ".flash",
  heading: "h1",
  // The generator links the pages from the layout's nav: reach them as a user would.
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
