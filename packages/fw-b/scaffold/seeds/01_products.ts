import type { SeedContext } from "fw-b";
import { Products } from "../lib/factories.js";

/** Example seed: `npx fw-b :seed` runs every file of seeds/ in name order (`--file 01_products`: this one). */
export async function seed({ env }: SeedContext): Promise<void> {
  await Products.createMany(env === "test" ? 2 : 10);
}
