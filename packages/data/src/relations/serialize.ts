/**
 * What a row shows as JSON: its columns but the model's `hidden` ones, and the relations that
 * were loaded into it (plain properties, so a relation that was not loaded is simply absent).
 * Nested rows were hydrated by their own model, so their own hidden columns stay hidden too.
 * Rows also remember their model, which lets factories find the relation a row belongs to.
 */
const models = new WeakMap<object, object>();

/** Gives `row` its JSON form (when the model hides columns) and remembers its model. */
export function markRow(row: Record<string, unknown>, model: object, hidden: readonly string[]): void {
  models.set(row, model);
  if (hidden.length === 0) return;
  Object.defineProperty(row, "toJSON", {
    enumerable: false,
    configurable: true,
    value(this: Record<string, unknown>) {
      return Object.fromEntries(Object.entries(this).filter(([key]) => !hidden.includes(key)));
    },
  });
}

/** The model a row was read or created through, if it was. */
export function modelOfRow(row: object): object | undefined {
  return models.get(row);
}
