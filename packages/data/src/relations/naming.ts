/**
 * The naming conventions relations use for keys and pivot tables: `tasks` -> `task_id`,
 * `categories` -> `category_id`, `task` + `assignees` -> `task_assignees`. Every name can be
 * overridden in the relation's options, so these only have to get the common English cases right.
 */

/** `tasks` -> `task`, `categories` -> `category`, `statuses` -> `status`, `people` stays. */
export function singular(table: string): string {
  const bare = table.replace(/^.*\./, "");
  if (/ies$/.test(bare)) return `${bare.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z|us)es$/.test(bare)) return bare.slice(0, -2);
  if (/[^s]s$/.test(bare)) return bare.slice(0, -1);
  return bare;
}

/** The key column naming a row of `table`: `projects` -> `project_id`. */
export function keyColumnOf(table: string): string {
  return `${singular(table)}_id`;
}

/** How a relation is named to a user: `project` -> `project`, `assigned_user` -> `assigned user`. */
export function humanName(name: string): string {
  return name
    .replace(/_id$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();
}
