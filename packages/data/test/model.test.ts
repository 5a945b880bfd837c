import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { connect } from "../src/connection.js";
import { defineModel, isModel } from "../src/model.js";
import type { BaseRow, CreateInput, RowOf, SoftDeleteRow } from "../src/model-types.js";
import { modelTimestamps } from "../src/schema.js";

interface ArticleRow extends BaseRow, SoftDeleteRow {
  id: number;
  title: string;
  summary: string | null;
}

describe("defineModel", () => {
  test("a model used before binding fails with E_MODEL_UNBOUND naming its table", async () => {
    const Article = defineModel<ArticleRow>("articles_unbound");
    assert.equal(Article.bound, false);
    await assert.rejects(Article.find(1), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_MODEL_UNBOUND");
      assert.match(error.message, /articles_unbound/);
      return true;
    });
    assert.throws(() => Article.query(), { code: "E_MODEL_UNBOUND" });
  });

  test("is recognised by isModel, binds, and is typed by its row", async () => {
    const db = await connect("sqlite::memory:");
    await db.knex.schema.createTable("articles", (table) => {
      table.increments("id");
      table.string("title").notNullable();
      table.text("summary").nullable();
      modelTimestamps(table, { softDelete: true });
    });
    const Article = defineModel<ArticleRow>("articles", { softDelete: true });
    assert.ok(isModel(Article));
    assert.ok(!isModel({}));
    assert.ok(!isModel(null));
    Article.bind(db.knex);
    assert.equal(Article.bound, true);
    assert.equal(Article.knex, db.knex);
    assert.equal(Article.softDelete, true);
    assert.equal(Article.scope, "active");
    assert.equal(Article.withTrashed().scope, "all");
    assert.equal(Article.onlyTrashed().scope, "trashed");

    const input: CreateInput<ArticleRow> = { title: "Typed" };
    const created: ArticleRow = await Article.create(input);
    const found: RowOf<typeof Article> | undefined = await Article.find(created.id);
    assert.equal(found?.title, "Typed");
    assert.equal(found?.summary, null);
    // @ts-expect-error title is required
    await assert.rejects(Article.create({ summary: "no title" }), { code: "E_INVALID_DATA" });
    // @ts-expect-error unknown columns are not accepted by update's type
    void (() => Article.update(1, { nope: 1 }));
    const raw = (await Article.query().where("id", created.id).select("*")) as unknown as Record<string, unknown>[];
    const hydrated = Article.hydrate(raw[0]!);
    assert.ok(hydrated.created_at instanceof Date);
    await db.close();
  });
});
