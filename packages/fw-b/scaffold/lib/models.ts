import { defineModel, type BaseRow } from "fw-b";

/**
 * The app's models. fw-b binds every model exported here to the database at start-up
 * (`dbUrl`, default `sqlite:data/app.db`); `fw-b :migrate` creates their tables from `migrations/`.
 */
export interface ProductRow extends BaseRow {
  id: number;
  name: string;
  price: number;
}

/** Products: `await Product.all()`, `await Product.find(id)`, `Product.query().where(...)`. */
export const Product = defineModel<ProductRow>("products");
