/**
 * Writing through relations: children created through their parent (create, createMany),
 * associate/dissociate of a belongsTo, attach/detach/sync in the
 * caller's transaction, the database's cascade rules, a foreign key naming no row as a 422 field
 * error, relation writes a kind does not have, and factories with relations.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { defineFactory, isRelatedRowMissing, transaction } from "../src/index.js";
import type { RelationFixture } from "./relations.case.js";
import { rejectsWith } from "./support/model-fixture.js";
import { Comment, Profile, Project, Task, User } from "./support/relation-models.js";

const Users = defineFactory(User, ({ faker }) => ({ name: faker.person.firstName(), password_hash: "x" }));
const Projects = defineFactory(Project, ({ faker }) => ({ name: faker.company.name(), owner_id: null }));
const Tasks = defineFactory(Task, ({ faker }) => ({
  title: faker.lorem.words(2),
  done: false,
  project_id: async () => (await Projects.create()).id,
}));

/** Registers the write cases. */
export function relationWriteCases(fx: RelationFixture): void {
  test("a child created through its parent gets the parent's key", async () => {
    const project = await Project.create({ name: "Site", owner_id: null });
    const task = await Project.related(project, "tasks").create({ title: "Plan", done: false });
    assert.equal(task.project_id, project.id);
    const user = await User.create({ name: "Ann", password_hash: "x" });
    const profile = await User.related(user, "profile").create({ bio: "hi" });
    assert.equal(profile.user_id, user.id);
    const assignee = await Task.related(task, "assignees").create(
      { name: "Bob", password_hash: "y" },
      { role: "lead" },
    );
    assert.deepEqual(
      (await Task.related(task, "assignees")).map((u) => [u.id, u.pivot.role]),
      [[assignee.id, "lead"]],
    );
  });

  test("createMany through a hasMany, associate and dissociate a belongsTo, in the caller's transaction", async () => {
    const project = await Project.create({ name: "Site", owner_id: null });
    const tasks = await Project.related(project, "tasks").createMany([
      { title: "Plan", done: false },
      { title: "Build", done: true },
    ]);
    assert.deepEqual(
      tasks.map((t) => [t.title, t.project_id]),
      [
        ["Plan", project.id],
        ["Build", project.id],
      ],
    );
    await rejectsWith(
      Project.related(project, "tasks").createMany([
        { title: "Ok", done: false },
        { title: null as never, done: false },
      ]),
      "E_INVALID_DATA",
      400,
    );
    assert.equal(await Project.related(project, "tasks").count(), 2, "a refused createMany leaves no row");
    const ann = await User.create({ name: "Ann", password_hash: "x" });
    const [loaded] = await Project.preload("owner").where("id", project.id);
    const owned = await Project.related(loaded!, "owner").associate(ann);
    assert.equal(owned, loaded, "the row given is the row changed");
    assert.equal(loaded!.owner_id, ann.id);
    assert.equal(loaded!.owner?.name, "Ann", "a loaded relation holds the new parent");
    assert.equal((await Project.findOrFail(project.id)).owner_id, ann.id);
    await assert.rejects(
      Project.transaction(async () => {
        await Project.related(loaded!, "owner").dissociate();
        assert.equal((await Project.findOrFail(project.id)).owner_id, null, "the transaction sees its write");
        throw new Error("roll back");
      }),
      /roll back/,
    );
    assert.equal((await Project.findOrFail(project.id)).owner_id, ann.id, "the dissociate rolled back");
    await Project.related(loaded!, "owner").dissociate();
    assert.equal(loaded!.owner, null);
    assert.equal((await Project.findOrFail(project.id)).owner_id, null);
    const task = tasks[0]!;
    const other = await Project.create({ name: "Shop", owner_id: null });
    await Task.related(task, "project").associate(other);
    assert.equal((await Task.findOrFail(task.id)).project_id, other.id);
    await rejectsWith(Task.related(task, "project").associate({ ...other, id: 999999 }), "E_VALIDATION", 422);
    await rejectsWith(
      Promise.resolve().then(() => Task.related(task, "project").associate({ name: "unsaved" } as never)),
      "E_RELATION_WRITE",
      500,
    );
  });

  test("attach, detach and sync write the pivot, and roll back with the caller's transaction", async () => {
    const project = await Project.create({ name: "Site", owner_id: null });
    const task = await Task.create({ title: "Plan", done: false, project_id: project.id });
    const [a, b, c] = await Promise.all(["A", "B", "C"].map((name) => User.create({ name, password_hash: "x" })));
    const assignees = () => Task.related(task, "assignees");
    const ids = async () => (await assignees()).map((u) => u.id);
    assert.equal(await assignees().attach([a!.id, b!.id]), 2);
    assert.equal(await assignees().attach(a!.id), 0, "attaching twice adds nothing");
    assert.deepEqual(await ids(), [a!.id, b!.id]);
    assert.equal(await assignees().detach(a!.id), 1);
    assert.deepEqual(await ids(), [b!.id]);
    const result = await assignees().sync({ [b!.id]: { role: "lead" }, [c!.id]: { role: "review" } });
    assert.deepEqual(result, { attached: [c!.id], detached: [], updated: [b!.id] });
    assert.deepEqual(
      (await assignees()).map((u) => [u.id, u.pivot.role]),
      [
        [b!.id, "lead"],
        [c!.id, "review"],
      ],
    );
    assert.deepEqual(await assignees().sync([c!.id]), { attached: [], detached: [b!.id], updated: [] });
    await assert.rejects(
      transaction(fx.knex(), async () => {
        await assignees().attach([a!.id, b!.id]);
        await assignees().detach(c!.id);
        assert.equal(await assignees().count(), 2, "the transaction sees its own writes");
        throw new Error("roll back");
      }),
      /roll back/,
    );
    assert.deepEqual(await ids(), [c!.id], "nothing of the rolled-back transaction stays");
    await Task.transaction(async () => {
      await assignees().sync([a!.id]);
    });
    assert.deepEqual(await ids(), [a!.id]);
    assert.equal(await assignees().detach(), 1);
    await rejectsWith(assignees().attach(a!.id, { nope: 1 }), "E_RELATION_WRITE", 500);
  });

  test("cascade rules: ON DELETE cascade and set null apply, restrict refuses with 409", async () => {
    const ann = await User.create({ name: "Ann", password_hash: "x" });
    await Profile.create({ user_id: ann.id, bio: "hi" });
    const project = await Project.create({ name: "Site", owner_id: ann.id });
    const task = await Task.create({ title: "Plan", done: false, project_id: project.id });
    await Task.related(task, "assignees").attach(ann.id);
    await Comment.create({ body: "ok", task_id: task.id });
    await User.delete(ann.id);
    assert.equal(await Profile.count(), 0, "the profile was deleted with its user");
    assert.equal((await Project.findOrFail(project.id)).owner_id, null, "the owner was set to null");
    assert.equal(await Task.related(task, "assignees").count(), 0, "the pivot rows went with the user");
    await rejectsWith(Project.delete(project.id), "E_FOREIGN_KEY_VIOLATION", 409);
    await Task.forceDelete(task.id);
    assert.equal(await Comment.count(), 0, "comments were deleted with their task");
    assert.equal(await Project.delete(project.id), true);
  });

  test("a foreign key naming no row is a 422 field error on that field, in and out of transactions", async () => {
    const error = await rejectsWith(
      Task.create({ title: "Lost", done: false, project_id: 999999 }),
      "E_VALIDATION",
      422,
    );
    assert.ok(isRelatedRowMissing(error));
    assert.deepEqual(error.fields, { project_id: ["Choose an existing project."] });
    assert.equal(error.old["title"], "Lost");
    const project = await Project.create({ name: "Site", owner_id: null });
    const task = await Task.create({ title: "Plan", done: false, project_id: project.id });
    const owner = await rejectsWith(
      transaction(fx.knex(), () => Project.update(project.id, { owner_id: 424242 })),
      "E_VALIDATION",
      422,
    );
    assert.deepEqual((owner as { fields?: unknown }).fields, { owner_id: ["Choose an existing owner."] });
    await rejectsWith(Task.update(task.id, { project_id: 777777 }), "E_VALIDATION", 422);
    assert.equal((await Task.findOrFail(task.id)).project_id, project.id);
  });

  test("writes a relation kind does not have are refused, naming what to do", async () => {
    const project = await Project.create({ name: "Site", owner_id: null });
    const task = await Task.create({ title: "Plan", done: false, project_id: project.id });
    const related = Task.related(task, "project") as unknown as { attach(id: number): Promise<number> };
    await rejectsWith(
      Promise.resolve().then(() => related.attach(1)),
      "E_RELATION_WRITE",
      500,
    );
  });

  test("factories: for(parent), with(relation, count), has(factory, count)", async () => {
    const project = await Projects.create();
    const tasks = await Tasks.for(project).createMany(2);
    assert.ok(tasks.every((t) => t.project_id === project.id));
    assert.equal(await Project.count(), 1, "for() keeps the definition from creating a project");
    const big = await Projects.with("tasks", 3).create();
    assert.equal(await Project.related(big, "tasks").count(), 3);
    const done = await Projects.has(Tasks.with({ done: true }), 2).create();
    const doneTasks = await Project.related(done, "tasks");
    assert.deepEqual(
      doneTasks.map((t) => t.done),
      [true, true],
    );
    const staffed = await Tasks.for(project, "project").with("assignees", 2).create();
    assert.equal(await Task.related(staffed, "assignees").count(), 2);
    const owner = await Users.create();
    const owned = await Projects.with({ owner_id: owner.id }).create();
    assert.equal((await Project.related(owned, "owner"))?.id, owner.id);
  });
}
