/**
 * The row types every model shares: what a row must have and what `create` and `update` accept.
 * Apart from the model API so relation types can use them without importing the model's types.
 */

/** Columns every model table has; `created_at`/`updated_at` are kept by the model. */
export interface BaseRow {
  id: number | string;
  created_at: Date;
  updated_at: Date;
}

/** Add to a row type when the model uses soft delete. */
export interface SoftDeleteRow {
  deleted_at: Date | null;
}

/** Columns the model fills in itself. */
export type AutoColumns = "id" | "created_at" | "updated_at" | "deleted_at";

type NullableKeys<R> = { [K in keyof R]-?: null extends R[K] ? K : undefined extends R[K] ? K : never }[keyof R];

/**
 * What `create` accepts: every non-nullable column except the automatic ones is required;
 * nullable columns, `id` and the timestamps are optional.
 */
export type CreateInput<R> = { [K in Exclude<keyof R, NullableKeys<R> | AutoColumns>]: R[K] } & {
  [K in Extract<keyof R, NullableKeys<R> | AutoColumns>]?: R[K];
};

/** What `update` accepts: any column but `id`; `updated_at` is set by the model. */
export type UpdateInput<R> = { [K in Exclude<keyof R, "id">]?: R[K] };
