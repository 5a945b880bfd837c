/**
 * Model suite cases: CRUD, UTC timestamps, date round-trips, lookups by client ids, soft delete.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { rejectsWith, type ModelFixture, type UserRow } from "./support/model-fixture.js";

/** Registers the CRUD and soft-delete cases (inside the dialect's describe). */
export function crudCases(fx: ModelFixture): void {
  const { User, Post, usersTable } = fx;
  const knex = () => fx.knex();
  test("the process runs in a non-UTC time zone", () => {
    assert.notEqual(new Date("2024-01-15T12:00:00Z").getTimezoneOffset(), 0, "set TZ before running this suite");
  });

  test("create sets id and UTC timestamps and returns the stored row", async () => {
    const before = Date.now();
    const user = await User.create({ email: "ada@example.com", name: "Ada", bio: null, published_at: null });
    const afterTime = Date.now();
    assert.equal(typeof user.id, "number");
    assert.ok(user.created_at instanceof Date);
    assert.ok(user.updated_at instanceof Date);
    assert.equal(user.created_at.getTime(), user.updated_at.getTime());
    assert.ok(user.created_at.getTime() >= before - 1 && user.created_at.getTime() <= afterTime + 1);
    assert.equal(user.email, "ada@example.com");
    assert.equal(user.bio, null);
  });

  test("timestamps are stored as UTC whatever the process time zone", async () => {
    const user = await User.create({ email: "utc@example.com", name: "Utc" });
    const iso = user.created_at.toISOString();
    const dialect = fx.db().dialect;
    if (dialect === "sqlite") {
      const [raw] = (await knex().raw(
        `select typeof(created_at) as kind, created_at as stored from ${usersTable} where id = ?`,
        [user.id],
      )) as {
        kind: string;
        stored: number;
      }[];
      assert.equal(raw?.kind, "integer");
      assert.equal(raw?.stored, user.created_at.getTime());
    } else if (dialect === "postgres") {
      const result = (await knex().raw(
        `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as stored from ${usersTable} where id = ?`,
        [user.id],
      )) as { rows: { stored: string }[] };
      assert.equal(result.rows[0]?.stored, iso.slice(0, 23));
    } else {
      const [rows] = (await knex().raw(
        `select date_format(created_at, '%Y-%m-%dT%H:%i:%s.%f') as stored from ${usersTable} where id = ?`,
        [user.id],
      )) as [{ stored: string }[]];
      assert.equal(rows[0]?.stored, `${iso.slice(0, 23)}000`);
    }
  });

  test("a date column round-trips to the millisecond, across a DST change", async () => {
    const published = new Date("2024-03-10T06:59:59.123Z");
    const user = await User.create({ email: "dst@example.com", name: "Dst", published_at: published });
    assert.ok(user.published_at instanceof Date);
    assert.equal(user.published_at.getTime(), published.getTime());
    const found = await User.findBy({ published_at: published });
    assert.equal(found?.id, user.id);
    const later = (await User.query().where("published_at", ">", new Date("2024-03-10T06:59:59.000Z"))) as UserRow[];
    assert.deepEqual(
      later.map((row) => row.id),
      [user.id],
    );
  });

  test("find, findBy, where, all, count and findOrFail", async () => {
    const grace = await User.create({ email: "grace@example.com", name: "Grace" });
    assert.equal((await User.find(grace.id))?.email, "grace@example.com");
    assert.equal((await User.find(String(grace.id)))?.id, grace.id);
    assert.equal((await User.findBy({ email: "grace@example.com" }))?.id, grace.id);
    assert.equal(await User.findBy({ email: "nobody@example.com" }), undefined);
    assert.deepEqual(
      (await User.where({ name: "Grace" })).map((u) => u.id),
      [grace.id],
    );
    const all = await User.all();
    assert.ok(all.length >= 2);
    assert.ok(all.every((u) => u.created_at instanceof Date));
    assert.equal(await User.count(), all.length);
    await rejectsWith(User.findOrFail(987654), "E_ROW_NOT_FOUND", 404);
    await rejectsWith(User.findByOrFail({ email: "nobody@example.com" }), "E_ROW_NOT_FOUND", 404);
  });

  test("ids from URLs that cannot be ids find nothing instead of failing", async () => {
    for (const id of ["abc", "1 OR 1=1", "1.5", "", "99999999999999999999", "-0x1", "2147483648"]) {
      assert.equal(await User.find(id), undefined, `find(${JSON.stringify(id)})`);
    }
    await rejectsWith(User.findOrFail("1 OR 1=1"), "E_ROW_NOT_FOUND", 404);
    await rejectsWith(User.update("abc", { name: "x" }), "E_ROW_NOT_FOUND", 404);
    assert.equal(await User.delete("abc"), false);
  });

  test("object values from JSON input never reach SQL as conditions", async () => {
    await User.create({ email: "obj@example.com", name: "Obj" });
    const sneaky = { email: { email: "obj@example.com" } } as unknown as Partial<UserRow>;
    assert.equal(await User.findBy(sneaky), undefined);
    assert.deepEqual(await User.where(sneaky), []);
  });

  test("update changes columns and updated_at, not created_at", async () => {
    const user = await User.create({ email: "upd@example.com", name: "Before" });
    await new Promise((resolve) => setTimeout(resolve, 15));
    const updated = await User.update(user.id, { name: "After" });
    assert.equal(updated.name, "After");
    assert.equal(updated.created_at.getTime(), user.created_at.getTime());
    assert.ok(updated.updated_at.getTime() > user.updated_at.getTime());
    await rejectsWith(User.update(987654, { name: "x" }), "E_ROW_NOT_FOUND", 404);
  });

  test("delete removes a row of a model without soft delete", async () => {
    const user = await User.create({ email: "del@example.com", name: "Del" });
    assert.equal(await User.delete(user.id), true);
    assert.equal(await User.find(user.id), undefined);
    assert.equal(await User.withTrashed().find(user.id), undefined);
    assert.equal(await User.delete(user.id), false);
  });

  test("soft delete hides rows unless asked, restore brings them back, forceDelete removes them", async () => {
    const kept = await Post.create({ title: "kept", author_id: null });
    const post = await Post.create({ title: "soft", author_id: null });
    assert.equal(post.deleted_at, null);
    assert.equal(await Post.delete(post.id), true);
    assert.equal(await Post.delete(post.id), false, "already deleted");
    assert.equal(await Post.find(post.id), undefined);
    assert.equal(await Post.findBy({ title: "soft" }), undefined);
    const trashed = await Post.withTrashed().find(post.id);
    assert.ok(trashed?.deleted_at instanceof Date);
    assert.deepEqual(
      (await Post.onlyTrashed().all()).map((p) => p.id),
      [post.id],
    );
    assert.ok(!(await Post.all()).some((p) => p.id === post.id));
    assert.ok((await Post.all()).some((p) => p.id === kept.id));
    assert.equal(await Post.withTrashed().count(), (await Post.count()) + 1);
    const visible = (await Post.query().select("id")) as { id: number }[];
    assert.ok(!visible.some((row) => row.id === post.id), "query() is scoped to live rows");
    await rejectsWith(Post.update(post.id, { title: "x" }), "E_ROW_NOT_FOUND", 404);
    const restored = await Post.restore(post.id);
    assert.equal(restored.deleted_at, null);
    assert.equal((await Post.find(post.id))?.title, "soft");
    await rejectsWith(Post.restore(post.id), "E_ROW_NOT_FOUND", 404);
    await Post.delete(post.id);
    assert.equal(await Post.forceDelete(post.id), true);
    assert.equal(await Post.withTrashed().find(post.id), undefined);
    await Post.forceDelete(kept.id);
  });
}
