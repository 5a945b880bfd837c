/** Model factories: seeded fake rows for seeds and tests. */
export {
  defineFactory,
  type AfterCreate,
  type Factory,
  type FactoryAttributes,
  type FactoryContext,
  type FactoryOverrides,
  type Lazy,
} from "./define-factory.js";
export { DEFAULT_FAKER_SEED, factoryFaker, seedFactories } from "./faker.js";
