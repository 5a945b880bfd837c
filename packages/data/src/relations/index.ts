/** Relations between models: declared with `.relations({...})`, loaded, queried and written through. */
export { belongsTo, hasMany, hasManyThrough, hasOne, manyToMany } from "./definitions.js";
export { isRelatedRowMissing, RelatedRowMissing } from "./missing-parent.js";
export { singular } from "./naming.js";
export type {
  BelongsToWrites,
  ChildInput,
  ColumnName,
  HasManyWrites,
  HasOneWrites,
  ManyToManyWrites,
  MergeLoaded,
  PivotIds,
  PivotValues,
  QueryRow,
  RelatedQuery,
  RelationConstraint,
  RelationQuery,
  RelationWrites,
  SyncResult,
  WhereOperator,
} from "./query-types.js";
export {
  RELATIONS,
  type BelongsToOptions,
  type HasManyOptions,
  type HasManyThroughOptions,
  type ManyToManyOptions,
  type ModelRow,
  type PathTarget,
  type PivotRow,
  type Preloaded,
  type RelatedResult,
  type RelationDefinition,
  type RelationKind,
  type RelationMap,
  type RelationPath,
  type RelationsOf,
  type RelationValue,
  type RowSource,
} from "./types.js";
