/**
 * Reading relations: each kind preloaded and lazily, nested and constrained preloads, whereHas,
 * withCount, soft-deleted rows left out, JSON with loaded relations and hidden columns, and the
 * number of queries a preloaded list runs.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RelationFixture } from "./relations.case.js";
import { rejectsWith } from "./support/model-fixture.js";
import { Comment, Profile, Project, type ProjectRow, Task, User, type UserRow } from "./support/relation-models.js";

/** Two users, two projects (one owned), tasks with assignees and comments. */
export async function seed() {
  const ann = await User.create({ name: "Ann", password_hash: "secret-a" });
  const bob = await User.create({ name: "Bob", password_hash: "secret-b" });
  await Profile.create({ user_id: ann.id, bio: "Ann's bio" });
  const site = await Project.create({ name: "Site", owner_id: ann.id });
  const shop = await Project.create({ name: "Shop", owner_id: null });
  const design = await Task.create({ title: "Design", done: true, project_id: site.id });
  const build = await Task.create({ title: "Build", done: false, project_id: site.id });
  const sell = await Task.create({ title: "Sell", done: false, project_id: shop.id });
  await Task.related(design, "assignees").attach([ann.id, bob.id], { role: "lead" });
  await Task.related(build, "assignees").attach(bob.id);
  await Comment.create({ body: "Looks good", task_id: design.id });
  await Comment.create({ body: "Ship it", task_id: build.id });
  return { ann, bob, site, shop, design, build, sell };
}

/** Registers the read cases. */
export function relationReadCases(fx: RelationFixture): void {
  test("belongsTo and hasOne: preloaded and lazy, null when the key is null", async () => {
    const { ann, site, shop, design } = await seed();
    const tasks = await Task.preload("project").orderBy("id");
    assert.deepEqual(
      tasks.map((t) => [t.title, t.project?.name]),
      [
        ["Design", "Site"],
        ["Build", "Site"],
        ["Sell", "Shop"],
      ],
    );
    const projects = await Project.preload("owner");
    assert.equal(projects.find((p) => p.id === site.id)?.owner?.name, "Ann");
    assert.equal(projects.find((p) => p.id === shop.id)?.owner, null);
    assert.equal((await Task.related(design, "project"))?.name, "Site");
    assert.equal(await Project.related(shop, "owner"), null);
    const users = await User.preload("profile").orderBy("id");
    assert.deepEqual(
      users.map((u) => u.profile?.bio ?? null),
      ["Ann's bio", null],
    );
    assert.equal((await User.related(ann, "profile"))?.bio, "Ann's bio");
  });

  test("hasMany: preloaded with a constraint, and a lazy relation query narrowed further", async () => {
    const { site, shop } = await seed();
    const projects = await Project.preload("tasks", (q) => q.where("done", false).orderBy("title", "desc")).orderBy(
      "id",
    );
    assert.deepEqual(
      projects.map((p) => [p.name, p.tasks.map((t) => t.title)]),
      [
        ["Site", ["Build"]],
        ["Shop", ["Sell"]],
      ],
    );
    assert.deepEqual(
      (await Project.related(site, "tasks")).map((t) => t.title),
      ["Design", "Build"],
    );
    const open = await Project.related(site, "tasks").where("done", false);
    assert.deepEqual(
      open.map((t) => t.title),
      ["Build"],
    );
    assert.equal(await Project.related(shop, "tasks").count(), 1);
  });

  test("manyToMany: preloaded with pivot columns, lazily, and from the other side", async () => {
    const { ann, bob, design, build, sell } = await seed();
    const tasks = await Task.preload("assignees", (q) => q.orderBy("name")).orderBy("id");
    const byTitle = new Map(tasks.map((t) => [t.title, t.assignees]));
    assert.deepEqual(
      byTitle.get("Design")?.map((u) => [u.name, u.pivot.role]),
      [
        ["Ann", "lead"],
        ["Bob", "lead"],
      ],
    );
    assert.deepEqual(
      byTitle.get("Build")?.map((u) => [u.name, u.pivot.role]),
      [["Bob", null]],
    );
    assert.deepEqual(byTitle.get("Sell"), []);
    assert.deepEqual(
      (await Task.related(build, "assignees")).map((u) => u.id),
      [bob.id],
    );
    const annTasks = await User.related(ann, "tasks");
    assert.deepEqual(
      annTasks.map((t) => [t.id, t.pivot.task_id]),
      [[design.id, design.id]],
    );
    assert.equal(await Task.related(sell, "assignees").count(), 0);
  });

  test("hasManyThrough: a project's comments through its tasks", async () => {
    const { site, shop } = await seed();
    const projects = await Project.preload("comments", (q) => q.orderBy("body")).orderBy("id");
    assert.deepEqual(
      projects.map((p) => p.comments.map((c) => c.body)),
      [["Looks good", "Ship it"], []],
    );
    assert.equal((await Project.related(site, "comments")).length, 2);
    assert.equal((await Project.related(shop, "comments")).length, 0);
  });

  test("nested preloads: project.owner and tasks.assignees, one query per relation", async () => {
    await seed();
    const tasks = await Task.preload("project.owner").preload("project").orderBy("id");
    assert.equal(tasks[0]?.project?.owner?.name, "Ann");
    assert.equal(tasks[2]?.project?.owner, null);
    const projects = await Project.preload("tasks.assignees", (q) => q.where("name", "Bob")).orderBy("id");
    assert.deepEqual(
      projects[0]?.tasks.map((t) => [t.title, t.assignees.map((u) => u.name)]),
      [
        ["Design", ["Bob"]],
        ["Build", ["Bob"]],
      ],
    );
    const rows = await Task.rows().where("title", "Design");
    const loaded = await Task.load(rows, "project", "comments");
    assert.equal(loaded[0]?.project?.name, "Site");
    assert.equal(loaded[0]?.comments.length, 1);
  });

  test("a page of rows with their relations, loaded for that page only", async () => {
    await seed();
    const page = await Task.preload("project")
      .orderBy("id", "desc")
      .paginate({ page: 2, perPage: 2, baseUrl: "/tasks" });
    assert.equal(page.total, 3);
    assert.equal(page.pages, 2);
    assert.deepEqual(
      page.items.map((t) => [t.title, t.project?.name]),
      [["Design", "Site"]],
    );
    assert.equal(page.links.prev, "/tasks?page=1");
  });

  test("whereHas, whereDoesntHave and withCount, with and without constraints", async () => {
    await seed();
    const withOpen = await Project.whereHas("tasks", (q) => q.where("done", false));
    assert.deepEqual(withOpen.map((p) => p.name).sort(), ["Shop", "Site"]);
    const withDone = await Project.whereHas("tasks", (q) => q.where("done", true));
    assert.deepEqual(
      withDone.map((p) => p.name),
      ["Site"],
    );
    const unassigned = await Task.whereDoesntHave("assignees");
    assert.deepEqual(
      unassigned.map((t) => t.title),
      ["Sell"],
    );
    const counted = await Project.withCount("tasks").withCount("comments").preload("owner").orderBy("id");
    assert.deepEqual(
      counted.map((p) => [p.name, p.tasks_count, p.comments_count]),
      [
        ["Site", 2, 2],
        ["Shop", 1, 0],
      ],
    );
    const leads = await Task.withCount("assignees", (q) => q.where("task_assignees.role", "lead")).orderBy("id");
    assert.deepEqual(
      leads.map((t) => t.assignees_count),
      [2, 0, 0],
    );
  });

  test("soft-deleted rows are left out of preloads, lazy queries, counts and whereHas", async () => {
    const { site, bob, build } = await seed();
    await Task.delete(build.id);
    const [project] = await Project.preload("tasks").withCount("tasks").where("id", site.id);
    assert.deepEqual(
      project?.tasks.map((t) => t.title),
      ["Design"],
    );
    assert.equal(project?.tasks_count, 1);
    assert.equal((await Project.related(site, "tasks")).length, 1);
    assert.deepEqual(
      (await User.related(bob, "tasks")).map((t) => t.title),
      ["Design"],
    );
    assert.deepEqual(
      (await Project.related(site, "comments")).map((c) => c.body),
      ["Looks good"],
    );
    const comment = await Comment.preload("task").where("body", "Ship it").first();
    assert.equal(comment?.task, null);
    const onlyBuild = await Project.whereHas("tasks", (q) => q.where("title", "Build"));
    assert.deepEqual(onlyBuild, []);
  });

  test("JSON holds the loaded relations only, and hidden columns stay hidden when nested", async () => {
    const { ann } = await seed();
    const plain = JSON.parse(JSON.stringify(await User.findOrFail(ann.id)));
    assert.equal(plain.password_hash, undefined);
    assert.equal(plain.name, "Ann");
    assert.ok(!("profile" in plain) && !("tasks" in plain));
    const user = await User.findOrFail(ann.id);
    assert.equal(user.password_hash, "secret-a", "the row itself keeps the column");
    const tasks = JSON.parse(JSON.stringify(await Task.preload("assignees").preload("project.owner")));
    const design = tasks.find((t: { title: string }) => t.title === "Design");
    assert.equal(design.assignees.length, 2);
    for (const assignee of design.assignees) assert.equal(assignee.password_hash, undefined);
    assert.equal(design.project.owner.name, "Ann");
    assert.equal(design.project.owner.password_hash, undefined);
    assert.ok(!("comments" in design));
    assert.ok(!("tasks" in design.project));
  });

  test("a list of 100 tasks with project and assignees preloaded runs 3 queries", async () => {
    const knex = fx.knex();
    const users: UserRow[] = [];
    for (let i = 0; i < 5; i++) users.push(await User.create({ name: `User ${i}`, password_hash: "x" }));
    const projects: ProjectRow[] = [];
    for (let i = 0; i < 10; i++) projects.push(await Project.create({ name: `Project ${i}`, owner_id: null }));
    const rows = Array.from({ length: 100 }, (_, i) => ({
      title: `Task ${i}`,
      done: false,
      project_id: projects[i % 10]!.id,
      created_at: new Date(),
      updated_at: new Date(),
    }));
    await knex("tasks").insert(rows);
    const ids = (await knex("tasks").select("id")) as { id: number }[];
    await knex("task_assignees").insert(
      ids.flatMap(({ id }, i) => [
        { task_id: id, user_id: users[i % 5]!.id },
        { task_id: id, user_id: users[(i + 1) % 5]!.id },
      ]),
    );
    const list = () => Task.preload("project").preload("assignees");
    await list(); // column kinds are learnt once per table; the count below is of the list itself
    const queries: string[] = [];
    const count = (query: { sql: string }) => queries.push(query.sql);
    knex.on("query", count);
    let tasks: Awaited<ReturnType<typeof list>>;
    try {
      tasks = await list();
    } finally {
      knex.off("query", count);
    }
    assert.equal(tasks.length, 100);
    assert.ok(tasks.every((t) => t.project !== null && t.assignees.length === 2));
    assert.ok(queries.length <= 3, `expected at most 3 queries, got ${queries.length}:\n${queries.join("\n")}`);
  });

  test("a relation not declared is refused, naming the declared ones", async () => {
    await rejectsWith(
      Promise.resolve().then(() => Task.preload("projet" as never)),
      "E_UNKNOWN_RELATION",
      500,
    );
    assert.throws(
      () => Task.preload("project.nope" as never),
      /The projects model has no relation "nope"\. Its relations: owner, tasks, comments/,
    );
  });
}
