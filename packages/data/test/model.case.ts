/**
 * The one model suite every dialect runs (SQLite, PostgreSQL, MariaDB): CRUD, soft delete, UTC
 * timestamps, transactions, pagination, injection-looking values, constraint errors.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Knex } from "knex";
import {
  defineModel,
  modelTimestamps,
  dateColumn,
  paginate,
  type BaseRow,
  type Database,
  type SoftDeleteRow,
} from "../src/index.js";

interface UserRow extends BaseRow {
  id: number;
  email: string;
  name: string;
  bio: string | null;
  published_at: Date | null;
}

interface PostRow extends BaseRow, SoftDeleteRow {
  id: number;
  title: string;
  author_id: number | null;
}

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

/** Options of {@link modelSuite}. */
export interface SuiteOptions {
  /** `test()` options applied to every test (serverSkip for server dialects). */
  readonly skip?: { skip: string | false };
}

async function rejectsWith(promise: Promise<unknown>, code: string, status: number): Promise<Error> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof Error, `expected ${code}, but nothing was thrown`);
  assert.equal((caught as { code?: string }).code, code, `expected ${code}, got: ${caught.message}`);
  assert.equal((caught as { status?: number }).status, status);
  return caught;
}

/** Registers the model suite for one database; `open` connects to it. */
export function modelSuite(name: string, open: () => Promise<Database>, options: SuiteOptions = {}): void {
  const suffix = `${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const usersTable = `data_users_${suffix}`;
  const postsTable = `data_posts_${suffix}`;
  const User = defineModel<UserRow>(usersTable, { dates: ["published_at"] });
  const Post = defineModel<PostRow>(postsTable, { softDelete: true });
  let db: Database | undefined;
  const knex = (): Knex => db!.knex;

  describe(`models on ${name}`, options.skip ?? {}, () => {
    before(async () => {
      db = await open();
      await knex().schema.createTable(usersTable, (table) => {
        table.increments("id");
        table.string("email", 200).notNullable().unique();
        table.string("name", 50).notNullable();
        table.text("bio").nullable();
        dateColumn(table, "published_at").nullable();
        modelTimestamps(table);
      });
      await knex().schema.createTable(postsTable, (table) => {
        table.increments("id");
        table.string("title", 200).notNullable();
        table.integer("author_id").unsigned().nullable().references("id").inTable(usersTable);
        modelTimestamps(table, { softDelete: true });
      });
      User.bind(knex());
      Post.bind(knex());
    });

    after(async () => {
      if (!db) return;
      await knex().schema.dropTableIfExists(postsTable);
      await knex().schema.dropTableIfExists(usersTable);
      await db.close();
    });

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
      const dialect = db!.dialect;
      if (dialect === "sqlite") {
        const [raw] = (await knex().raw(`select typeof(created_at) as kind, created_at as stored from ${usersTable} where id = ?`, [user.id])) as {
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
        const [rows] = (await knex().raw(`select date_format(created_at, '%Y-%m-%dT%H:%i:%s.%f') as stored from ${usersTable} where id = ?`, [
          user.id,
        ])) as [{ stored: string }[]];
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
      const error = await rejectsWith(User.create({ email: "taken@example.com", name: "Two" }), "E_UNIQUE_VIOLATION", 409);
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
      if (db!.dialect === "sqlite") {
        assert.equal((await User.create({ email: "long@example.com", name: long })).name, long, "SQLite keeps long text");
      } else {
        await rejectsWith(User.create({ email: "long@example.com", name: long }), "E_INVALID_DATA", 400);
      }
    });

    test("paginate counts every matching row and links keep the query string", async () => {
      const ids: number[] = [];
      for (let i = 1; i <= 23; i++) ids.push((await Post.create({ title: `page-${String(i).padStart(2, "0")}`, author_id: null })).id);
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
      const grouped = await paginate(Post.query().select("author_id").count({ n: "*" }).groupBy("author_id"), { page: 1, perPage: 5 });
      assert.equal(grouped.total, 1, "a grouped query counts its groups");
      const empty = await paginate(Post.query().where("title", "no such title"), { page: 1, perPage: 10 });
      assert.equal(empty.total, 0);
      assert.equal(empty.pages, 0);
      assert.equal(empty.hasNext, false);
      await Post.query().whereIn("id", [...ids, gone.id]).del();
      await Post.withTrashed().query().where("id", gone.id).del();
    });
  });
}
