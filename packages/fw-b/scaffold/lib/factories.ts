import { defineFactory } from "fw-b";
import { Product } from "./models.js";

/**
 * Model factories: fake rows for seeds and tests. Faker is seeded (FAKER_SEED, default 1), so the
 * same rows come back on every run. `await Products.create()`, `await Products.createMany(5)`,
 * `await Products.create({ name: "Oolong" })`, `Products.make()` (not saved).
 */
export const Products = defineFactory(Product, ({ faker }) => ({
  name: faker.commerce.productName(),
  price: Number(faker.commerce.price({ min: 2, max: 30 })),
}));
