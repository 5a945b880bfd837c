/** Seed files and the seed command both CLIs share. */
export {
  listSeeds,
  runSeeds,
  SEED_EXTENSIONS,
  type RunSeedsOptions,
  type SeedContext,
  type SeedFunction,
} from "./run-seeds.js";
export { seedApp, seedCliCommand, SEEDS_DIR, type SeedAppOptions, type SeedCliCommand } from "./seed-commands.js";
