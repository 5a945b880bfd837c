/**
 * What a reference field knows of the resource it points at, found in the app by references.ts
 * and used by the field rules in fields.ts; in its own module so neither imports the other.
 */
import type { ResourceNames } from "./resource-names.js";

/** The parent of a reference, as the app declares it. */
export interface Parent {
  /** The parent's names: `Project`, `projects`, `Projects` (its factory). */
  readonly names: ResourceNames;
  /** The parent's column that labels a row: its first string column, else `id`. */
  readonly label: string;
  /** Where the child's model file (under lib/models/) imports the parent model from. */
  readonly modelImport: string;
  /** Where the child's factory file (under lib/factories/) imports the parent's factory from. */
  readonly factoryImport: string;
}
