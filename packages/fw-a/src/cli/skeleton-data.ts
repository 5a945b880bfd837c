/**
 * The data files of a new fw-a app beside its models: a factory of the scaffold's Note model
 * (`lib/factories.ts`, for seeds and tests) and an example seed (`seeds/01_notes.ts`, run by
 * `fw-a db:seed`).
 */

/** `lib/factories.ts` and `seeds/01_notes.ts` of a new app. */
export function dataSkeletonFiles(): Record<string, string> {
  return {
    "lib/factories.ts": `import { defineFactory } from "fw-a";
import { Note } from "./models.js";

/**
 * Model factories: fake rows for seeds and tests. Faker is seeded (FAKER_SEED, default 1), so the
 * same rows come back on every run. \`await Notes.create()\`, \`await Notes.createMany(5)\`,
 * \`await Notes.create({ title: "Mine" })\`, \`Notes.make()\` (not saved).
 */
export const Notes = defineFactory(Note, ({ faker }) => ({
  title: faker.lorem.sentence({ min: 3, max: 6 }),
}));
`,
    "seeds/01_notes.ts": `import type { SeedContext } from "fw-a";
import { Notes } from "../lib/factories.js";

/** Example seed: \`npx fw-a db:seed\` runs every file of seeds/ in name order (\`--file 01_notes\`: this one). */
export async function seed({ env }: SeedContext): Promise<void> {
  await Notes.createMany(env === "test" ? 2 : 10);
}
`,
  };
}
