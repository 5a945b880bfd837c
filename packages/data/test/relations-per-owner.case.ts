/**
 * A preload constraint's limit and offset counted per owner (each project's latest task), for
 * every kind that loads many rows, in one query per relation; and withTrashed()/onlyTrashed()
 * with relations: the model's own deleted rows seen, the related rows still the live ones.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RelationFixture } from "./relations.case.js";
import { seed } from "./relations-read.case.js";
import { Comment, Project, Task, User } from "./support/relation-models.js";

/** Registers the per-owner limit and trashed-view cases. */
export function relationPerOwnerCases(fx: RelationFixture): void {
  test("limit and offset in a preload constraint count per owner, one query per relation", async () => {
    const { site, shop, design } = await seed();
    await Task.create({ title: "Test", done: false, project_id: site.id });
    await Comment.create({ body: "Second", task_id: design.id });
    const latest = () =>
      Project.preload("tasks", (q) => q.orderBy("id", "desc").limit(2))
        .preload("tasks.assignees", (q) => q.orderBy("name").limit(1))
        .orderBy("id");
    await latest(); // column kinds are learnt once per table; the count below is of the list itself
    const queries: string[] = [];
    const count = (query: { sql: string }) => queries.push(query.sql);
    fx.knex().on("query", count);
    let projects: Awaited<ReturnType<typeof latest>>;
    try {
      projects = await latest();
    } finally {
      fx.knex().off("query", count);
    }
    assert.equal(queries.length, 3, queries.join("\n"));
    assert.deepEqual(
      projects.map((p) => [p.name, p.tasks.map((t) => [t.title, t.assignees.map((u) => u.name)])]),
      [
        [
          "Site",
          [
            ["Test", []],
            ["Build", ["Bob"]],
          ],
        ],
        ["Shop", [["Sell", []]]],
      ],
    );
    const second = await Project.preload("tasks", (q) => q.orderBy("title").offset(1).limit(1)).orderBy("id");
    assert.deepEqual(
      second.map((p) => p.tasks.map((t) => t.title)),
      [["Design"], []],
    );
    const users = await User.preload("tasks", (q) => q.orderBy("title").limit(1)).orderBy("name");
    assert.deepEqual(
      users.map((u) => [u.name, u.tasks.map((t) => [t.title, t.pivot.role])]),
      [
        ["Ann", [["Design", "lead"]]],
        ["Bob", [["Build", null]]],
      ],
    );
    const comments = await Project.preload("comments", (q) => q.orderBy("body", "desc").limit(1)).where("id", site.id);
    assert.deepEqual(
      comments[0]?.comments.map((c) => c.body),
      ["Ship it"],
    );
    const owners = await Task.preload("project", (q) => q.limit(1)).orderBy("id");
    assert.ok(
      owners.every((t) => t.project?.id === t.project_id),
      "every task keeps its own project",
    );
    assert.equal((await Project.rows().orderBy("id").limit(1)).length, 1, "outside a preload, limit counts all rows");
    assert.equal((await Project.related(site, "tasks").limit(2)).length, 2);
    void shop;
  });

  test("withTrashed() and onlyTrashed() preload relations; soft-deleted related rows stay out", async () => {
    const { site, build, design } = await seed();
    await Task.delete(build.id);
    const all = await Task.withTrashed().preload("project").orderBy("id");
    assert.deepEqual(
      all.map((t) => [t.title, t.project?.name]),
      [
        ["Design", "Site"],
        ["Build", "Site"],
        ["Sell", "Shop"],
      ],
    );
    const trashed = await Task.onlyTrashed().preload("project").preload("assignees");
    assert.deepEqual(
      trashed.map((t) => [t.title, t.project?.name, t.assignees.map((u) => u.name)]),
      [["Build", "Site", ["Bob"]]],
    );
    assert.equal(await Task.withTrashed().whereHas("comments").count(), 2);
    const [project] = await Project.preload("tasks").where("id", site.id);
    assert.deepEqual(
      project?.tasks.map((t) => t.title),
      ["Design"],
      "a project's tasks leave the deleted one out",
    );
    const [comment] = await Comment.preload("task").where("body", "Ship it");
    assert.equal(comment?.task, null, "a comment on a deleted task preloads no task");
    assert.equal((await Task.withTrashed().related(build, "project"))?.id, site.id);
    void design;
  });
}
