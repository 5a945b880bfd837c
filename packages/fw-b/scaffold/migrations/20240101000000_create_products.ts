import type { Knex } from "fw-b";

/** The products table, with two products to start with. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("products", (table) => {
    table.increments("id");
    table.string("name", 100).notNullable();
    table.decimal("price", 8, 2).notNullable();
    // Dates: millisecond precision, UTC in every dialect (the models keep them).
    table.datetime("created_at", { precision: 3 }).notNullable();
    table.datetime("updated_at", { precision: 3 }).notNullable();
  });
  const now = new Date();
  await knex("products").insert([
    { name: "Green tea", price: 4.5, created_at: now, updated_at: now },
    { name: "Black tea", price: 3.9, created_at: now, updated_at: now },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("products");
}
