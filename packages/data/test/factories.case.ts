/**
 * The factory cases every dialect runs: attributes from the seeded faker, saved rows, overrides,
 * states, related rows made through lazy attributes and afterCreate callbacks, and the same data
 * again after seedFactories.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { defineFactory, modelTimestamps, seedFactories, type Database } from "../src/index.js";
import { modelFixture, rejectsWith } from "./support/model-fixture.js";

/** Registers the factory cases for one database; `open` connects to it. */
export function factorySuite(name: string, open: () => Promise<Database>): void {
  const fx = modelFixture();
  const { User, Post, usersTable, postsTable } = fx;
  const Users = defineFactory(User, ({ faker, sequence }) => ({
    email: `user${sequence}@example.com`,
    name: faker.person.firstName(),
    bio: () => faker.lorem.sentence(),
  }));
  const Posts = defineFactory(Post, ({ faker }) => ({
    title: faker.lorem.words(3),
    author_id: async () => (await Users.create()).id,
  }));
  let opened = false;

  describe(`factories on ${name}`, () => {
    before(async () => {
      const db = await open();
      fx.open(db);
      opened = true;
      await db.knex.schema.createTable(usersTable, (table) => {
        table.increments("id");
        table.string("email", 200).notNullable().unique();
        table.string("name", 50).notNullable();
        table.text("bio").nullable();
        table.bigInteger("published_at").nullable();
        modelTimestamps(table);
      });
      await db.knex.schema.createTable(postsTable, (table) => {
        table.increments("id");
        table.string("title", 200).notNullable();
        table.integer("author_id").unsigned().nullable().references("id").inTable(usersTable);
        modelTimestamps(table, { softDelete: true });
      });
      User.bind(db.knex);
      Post.bind(db.knex);
    });
    beforeEach(async () => {
      await fx.knex()(postsTable).del();
      await fx.knex()(usersTable).del();
      await seedFactories(42);
    });
    after(async () => {
      if (!opened) return;
      await fx.knex().schema.dropTableIfExists(postsTable);
      await fx.knex().schema.dropTableIfExists(usersTable);
      await fx.db().close();
    });

    test("make builds attributes without saving; the same seed gives the same data", async () => {
      const first = await Users.makeMany(3);
      assert.deepEqual(
        first.map((row) => row.email),
        ["user1@example.com", "user2@example.com", "user3@example.com"],
      );
      assert.ok(
        first.every((row) => typeof row.name === "string" && row.name.length > 0 && typeof row.bio === "string"),
      );
      assert.equal(await User.count(), 0);
      await seedFactories(42);
      assert.deepEqual(await Users.makeMany(3), first);
      await seedFactories(7);
      assert.notDeepEqual(
        (await Users.makeMany(3)).map((row) => row.name),
        first.map((row) => row.name),
      );
    });

    test("create and createMany save through the model (timestamps, ids) and overrides win", async () => {
      const ada = await Users.create({ name: "Ada", bio: null });
      assert.equal(ada.name, "Ada");
      assert.equal(ada.bio, null);
      assert.ok(ada.created_at instanceof Date);
      const rows = await Users.createMany(4, ({ sequence }) => ({ name: `Member ${sequence}` }));
      assert.deepEqual(
        rows.map((row) => row.name),
        ["Member 2", "Member 3", "Member 4", "Member 5"],
      );
      assert.equal(await User.count(), 5);
      const stored = await User.findByOrFail({ email: "user3@example.com" });
      assert.equal(stored.name, "Member 3");
    });

    test("a relation is made by a lazy attribute, and not at all when overridden", async () => {
      const post = await Posts.create();
      assert.equal(await User.count(), 1);
      const author = await User.findOrFail(post.author_id!);
      assert.equal(post.author_id, author.id);
      const mine = await Posts.createMany(2, { author_id: author.id });
      assert.ok(mine.every((row) => row.author_id === author.id));
      assert.equal(await User.count(), 1, "no author made for posts that were given one");
      assert.equal(await Post.count(), 3);
    });

    test("with() keeps a state, afterCreate makes rows that point back", async () => {
      const writers = Users.with({ bio: "writes" }).afterCreate(async (user) => {
        await Posts.createMany(2, { author_id: user.id });
      });
      const [one, two] = await writers.createMany(2);
      assert.equal(one!.bio, "writes");
      assert.equal((await Post.where({ author_id: one!.id })).length, 2);
      assert.equal((await Post.where({ author_id: two!.id })).length, 2);
      assert.equal(await User.count(), 2);
      assert.equal((await Users.create()).bio !== "writes", true, "the base factory keeps its own definition");
    });

    test("inside a model transaction, a failing factory leaves nothing", async () => {
      await assert.rejects(
        User.transaction(async () => {
          await Users.createMany(2);
          await Users.create({ email: "user1@example.com" });
        }),
        (error: Error & { code?: string }) => error.code === "E_UNIQUE_VIOLATION",
      );
      assert.equal(await User.count(), 0);
    });

    test("a count that is not a whole number is refused with its code", async () => {
      await rejectsWith(Users.createMany(-1), "E_FACTORY_COUNT", 500);
      await rejectsWith(Users.makeMany(1.5), "E_FACTORY_COUNT", 500);
    });
  });
}
