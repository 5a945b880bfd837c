/**
 * Model suite cases: transactions, injection-looking values, constraint errors, pagination.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { paginate } from "../src/index.js";
import { rejectsWith, type ModelFixture, type PostRow, type UserRow } from "./support/model-fixture.js";

/** Values that would break or subvert SQL built by concatenation. */
export const INJECTION_VALUES = [
  "'; DROP TABLE users; --",
  "Robert'); DROP TABLE Students;--",
  '" OR "1"="1',
  "' OR '1'='1' --",
  "1; DELETE FROM users WHERE 1=1",
  "\\'; SELECT 1; --",
  "%_*?[]",
  "$1 $2 ? ?? :name",
  "`backtick` /* comment */",
  "emoji ☃ 🎉 ünïcödé",
] as const;

/** Registers the transaction, safety and pagination cases (inside the dialect's describe). */
export function ruleCases(fx: ModelFixture): void {
  const { User, Post, usersTable } = fx;
  const knex = () => fx.knex();
  const db = () => fx.db();
  test("a transaction is rolled back when its function throws, committed otherwise", async () => {
    const before = await User.count();
    await assert.rejects(
      User.transaction(async () => {
        const user = await User.create({ email: "tx@example.com", name: "Tx" });
        await Post.create({ title: "in tx", author_id: user.id });
        assert.equal(await User.count(), before + 1, "visible inside the transaction");
        throw new Error("boom");
      }),
      /boom/,
    );
    assert.equal(await User.count(), before);
    assert.equal(await User.findBy({ email: "tx@example.com" }), undefined);
    assert.equal(await Post.findBy({ title: "in tx" }), undefined);

    const made = await Post.transaction(async (trx) => {
      const user = await User.create({ email: "tx2@example.com", name: "Tx2" });
      const rows = (await trx(usersTable).where("id", user.id)) as UserRow[];
      assert.equal(rows.length, 1, "the trx argument sees the same transaction");
      return Post.create({ title: "committed", author_id: user.id });
    });
    assert.equal((await Post.find(made.id))?.title, "committed");
    await Post.forceDelete(made.id);
  });

  test("a failing statement inside a transaction rolls back the earlier ones", async () => {
    await User.create({ email: "dup-tx@example.com", name: "First" });
    const before = await User.count();
    await rejectsWith(
      User.transaction(async () => {
        await User.create({ email: "fresh-tx@example.com", name: "Fresh" });
        await User.create({ email: "dup-tx@example.com", name: "Dup" });
      }),
      "E_UNIQUE_VIOLATION",
      409,
    );
    assert.equal(await User.count(), before);
  });

  test("values that would be SQL injection are stored and read back verbatim", async () => {
    for (const [index, value] of INJECTION_VALUES.entries()) {
      const user = await User.create({ email: `inj${index}@example.com`, name: value.slice(0, 50), bio: value });
      const found = await User.find(user.id);
      assert.equal(found?.bio, value);
      assert.equal(found?.name, value.slice(0, 50));
      assert.equal((await User.findBy({ bio: value }))?.id, user.id);
      const updated = await User.update(user.id, { bio: `${value}!` });
      assert.equal(updated.bio, `${value}!`);
    }
    assert.ok(await knex().schema.hasTable(usersTable), "the table is still there");
    assert.equal(await User.findBy({ email: "' OR '1'='1" }), undefined);
  });

  test("a unique violation becomes a 409 with a message naming the column", async () => {
    await User.create({ email: "taken@example.com", name: "One" });
    const error = await rejectsWith(
      User.create({ email: "taken@example.com", name: "Two" }),
      "E_UNIQUE_VIOLATION",
      409,
    );
    assert.match(error.message, /email/);
    assert.match(error.message, new RegExp(usersTable));
    const other = await User.create({ email: "other@example.com", name: "Three" });
    await rejectsWith(User.update(other.id, { email: "taken@example.com" }), "E_UNIQUE_VIOLATION", 409);
  });

  test("values the columns refuse become 400s, not 500s", async () => {
    const missing = { email: "nonull@example.com", name: null } as unknown as UserRow;
    await rejectsWith(User.create(missing), "E_INVALID_DATA", 400);
    await rejectsWith(Post.create({ title: "orphan", author_id: 987654 }), "E_FOREIGN_KEY_VIOLATION", 409);
    const long = "x".repeat(51);
    if (db().dialect === "sqlite") {
      assert.equal((await User.create({ email: "long@example.com", name: long })).name, long, "SQLite keeps long text");
    } else {
      await rejectsWith(User.create({ email: "long@example.com", name: long }), "E_INVALID_DATA", 400);
    }
  });

  test("paginate counts every matching row and links keep the query string", async () => {
    const ids: number[] = [];
    for (let i = 1; i <= 23; i++)
      ids.push((await Post.create({ title: `page-${String(i).padStart(2, "0")}`, author_id: null })).id);
    const gone = await Post.create({ title: "page-deleted", author_id: null });
    await Post.delete(gone.id);
    const query = () => Post.query().where("title", "like", "page-%").orderBy("title", "desc");
    const page2 = await paginate<PostRow>(query(), {
      page: 2,
      perPage: 10,
      baseUrl: "/posts",
      query: { q: "a b&c", sort: "title", page: "2" },
    });
    assert.equal(page2.total, 23, "soft-deleted rows are not counted");
    assert.equal(page2.pages, 3);
    assert.equal(page2.items.length, 10);
    assert.equal(page2.items[0]?.title, "page-13");
    assert.ok(page2.items[0]?.created_at instanceof Date);
    assert.equal(page2.hasNext, true);
    assert.equal(page2.hasPrev, true);
    const next = new URL(page2.links.next!, "http://x");
    assert.equal(next.pathname, "/posts");
    assert.equal(next.searchParams.get("q"), "a b&c");
    assert.equal(next.searchParams.get("sort"), "title");
    assert.equal(next.searchParams.get("page"), "3");
    assert.equal(new URL(page2.links.prev!, "http://x").searchParams.get("page"), "1");
    assert.deepEqual(
      page2.links.pages.map((l) => [l.page, l.current]),
      [
        [1, false],
        [2, true],
        [3, false],
      ],
    );
    const page3 = await paginate<PostRow>(query(), { page: 3, perPage: 10 });
    assert.equal(page3.items.length, 3);
    assert.equal(page3.hasNext, false);
    assert.equal(page3.links.next, null);
    const beyond = await paginate<PostRow>(query(), { page: 9, perPage: 10 });
    assert.deepEqual(beyond.items, []);
    assert.equal(beyond.total, 23);
    const grouped = await paginate(Post.query().select("author_id").count({ n: "*" }).groupBy("author_id"), {
      page: 1,
      perPage: 5,
    });
    assert.equal(grouped.total, 1, "a grouped query counts its groups");
    const empty = await paginate(Post.query().where("title", "no such title"), { page: 1, perPage: 10 });
    assert.equal(empty.total, 0);
    assert.equal(empty.pages, 0);
    assert.equal(empty.hasNext, false);
    await Post.query()
      .whereIn("id", [...ids, gone.id])
      .del();
    await Post.withTrashed().query().where("id", gone.id).del();
  });
}
