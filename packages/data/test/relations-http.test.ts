// A foreign key from a form that names no row, over real HTTP: the model's RelatedRowMissing is
// answered by the validation middleware like any refused input, 422 JSON with the error on the
// key's field for an API client, and a 303 back to the form with that field's error for a browser.
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { httpClient } from "@fwkit/test-servers";
import Koa from "koa";
import { koaBody } from "koa-body";
import session from "koa-session";
import { z } from "zod";
import { validate } from "../src/index.js";
import { flashLocals, flashMiddleware, validationErrorMiddleware } from "../src/plugin-api.js";
import { type OwnDatabase, ownDatabase } from "./support/relation-database.js";
import { bindRelationModels, createRelationTables, Project, Task } from "./support/relation-models.js";

const TaskInput = z.object({ title: z.string().min(1), project_id: z.coerce.number().int() });

let own: OwnDatabase;
let origin: string;
let close: () => Promise<void>;

before(async () => {
  own = await ownDatabase("sqlite");
  await createRelationTables(own.db.knex);
  bindRelationModels(own.db.knex);
  const app = new Koa();
  app.keys = ["relations-http-secret"];
  app.use(session({ signed: true }, app));
  app.use(koaBody());
  app.use(flashMiddleware());
  app.use(async (ctx, next) => {
    if (ctx.path === "/tasks/new") return void (ctx.body = flashLocals(ctx));
    const kind = ctx.path.startsWith("/api/") ? "json" : undefined;
    if (ctx.method !== "POST") return next();
    await validationErrorMiddleware(kind)(ctx, async () => {
      const input = await validate(ctx, TaskInput);
      const task = await Task.create({ ...input, done: false });
      ctx.status = 201;
      ctx.body = task;
    });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
after(async () => {
  await close?.();
  await own?.drop();
});

describe("a foreign key naming no row, from a request", () => {
  test("an API client gets 422 with the error on the key's field; an existing parent is created", async () => {
    const refused = await fetch(`${origin}/api/tasks`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Lost", project_id: 4242 }),
    });
    assert.equal(refused.status, 422);
    const body = (await refused.json()) as { error: { fields: Record<string, string[]> } };
    assert.deepEqual(body.error.fields, { project_id: ["Choose an existing project."] });
    const project = await Project.create({ name: "Site", owner_id: null });
    const created = await fetch(`${origin}/api/tasks`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Found", project_id: project.id }),
    });
    assert.equal(created.status, 201);
  });

  test("a form post goes back to the form with the field's error and the old input", async () => {
    const browser = httpClient(origin);
    const response = await browser.fetch("/tasks", {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "text/html",
        Referer: `${origin}/tasks/new`,
      },
      body: new URLSearchParams({ title: "Lost", project_id: "999" }).toString(),
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "/tasks/new");
    const page = (await (await browser.fetch("/tasks/new")).json()) as {
      errors: Record<string, string[]>;
      old: Record<string, unknown>;
    };
    assert.deepEqual(page.errors, { project_id: ["Choose an existing project."] });
    assert.equal(page.old["title"], "Lost");
  });
});
