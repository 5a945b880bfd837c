import type { Knex } from "fw-a";

/** The posts table, with the two demo posts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("posts", (table) => {
    table.increments("id");
    table.string("slug", 120).notNullable().unique();
    table.string("title", 200).notNullable();
    table.text("body").notNullable();
    table.datetime("published_at", { precision: 3 }).notNullable();
    table.datetime("created_at", { precision: 3 }).notNullable();
    table.datetime("updated_at", { precision: 3 }).notNullable();
  });
  const now = new Date();
  await knex("posts").insert([
    {
      slug: "hello-fw-a",
      title: "Hello, fw-a",
      published_at: new Date("2026-11-01T09:00:00Z"),
      body: "Views are **classes**; templates are found by convention.\n\n- one class, one URL prefix\n- one method, one page",
      created_at: now,
      updated_at: now,
    },
    {
      slug: "markdown",
      title: "Writing in Markdown",
      published_at: new Date("2026-11-10T09:00:00Z"),
      body: "Post bodies are Markdown, rendered with the `markdown` filter.\n\n```ts\nexport class Blog extends FwA {}\n```",
      created_at: now,
      updated_at: now,
    },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("posts");
}
