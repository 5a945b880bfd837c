// What the list with relations pays for, in one process without HTTP: the preload
// (`listThroughModels`, fw-a's models), the same three SQL queries through knex with no models (no
// hydration, no relation code), the hand-written two queries reading every column as the preload
// does, and the hand-written list itself (`listByHand`, only the columns shown). Each variant's
// answer is checked against the hand-written one, then blocks of 10 lists (each serialized to
// JSON) alternate; printed: CPU time per list and the median over blocks of each against by hand.
//   node dist/micro-relations-parts.js [blocks = 40]
import { loadavg } from "node:os";
import { belongsTo, defineModel, manyToMany } from "fw-a";
import knex, { type Knex } from "knex";
import { E_BENCH_RUN } from "./errors.js";
import { DB_TARGETS, prepareDb } from "./servers/db-fixture.js";
import { type ListedTask, listByHand, listThroughModels, REL_TABLES as t } from "./servers/relations-fixture.js";

type Row = Record<string, unknown>;

/** The preload's three queries (every column, the pivot columns) by hand, grouped in JavaScript. */
async function sameSql(db: Knex): Promise<ListedTask[]> {
  const tasks = (await db(t.tasks).select(`${t.tasks}.*`).orderBy(`${t.tasks}.id`)) as Row[];
  const projects = (await db(t.projects)
    .select(`${t.projects}.*`)
    .whereIn(`${t.projects}.id`, [...new Set(tasks.map((row) => row["project_id"] as number))])
    .orderBy(`${t.projects}.id`)) as Row[];
  const users = (await db(t.users)
    .join(t.pivot, `${t.pivot}.user_id`, `${t.users}.id`)
    .select(`${t.users}.*`, `${t.pivot}.task_id as pivot__task_id`, `${t.pivot}.user_id as pivot__user_id`)
    .whereIn(
      `${t.pivot}.task_id`,
      tasks.map((row) => row["id"] as number),
    )
    .orderBy(`${t.users}.id`)) as Row[];
  const projectById = new Map(projects.map((row) => [row["id"], row]));
  const byTask = new Map<unknown, Row[]>();
  for (const user of users) {
    const list = byTask.get(user["pivot__task_id"]);
    if (list) list.push(user);
    else byTask.set(user["pivot__task_id"], [user]);
  }
  return tasks.map((task) => {
    const project = projectById.get(task["project_id"]);
    return {
      id: task["id"] as number,
      title: task["title"] as string,
      project: project ? { id: project["id"] as number, name: project["name"] as string } : null,
      assignees: (byTask.get(task["id"]) ?? []).map((user) => ({
        id: user["id"] as number,
        name: user["name"] as string,
      })),
    };
  });
}

/** The hand-written two queries reading every column of the three tables, as the preload does. */
async function byHandEveryColumn(db: Knex): Promise<ListedTask[]> {
  const rows = (await db(t.tasks)
    .join(t.projects, `${t.projects}.id`, `${t.tasks}.project_id`)
    .select(
      `${t.tasks}.*`,
      `${t.projects}.name as project_name`,
      `${t.projects}.created_at as project_created_at`,
      `${t.projects}.updated_at as project_updated_at`,
    )
    .orderBy(`${t.tasks}.id`)) as Row[];
  const people = (await db(t.pivot)
    .join(t.users, `${t.users}.id`, `${t.pivot}.user_id`)
    .whereIn(
      `${t.pivot}.task_id`,
      rows.map((row) => row["id"] as number),
    )
    .select(`${t.pivot}.task_id`, `${t.users}.*`)
    .orderBy([`${t.pivot}.task_id`, `${t.users}.id`])) as Row[];
  const byTask = new Map<unknown, { id: number; name: string }[]>();
  for (const person of people) {
    const entry = { id: person["id"] as number, name: person["name"] as string };
    const list = byTask.get(person["task_id"]);
    if (list) list.push(entry);
    else byTask.set(person["task_id"], [entry]);
  }
  return rows.map((row) => ({
    id: row["id"] as number,
    title: row["title"] as string,
    project: { id: row["project_id"] as number, name: row["project_name"] as string },
    assignees: byTask.get(row["id"]) ?? [],
  }));
}

await prepareDb();
const db = knex({ client: "pg", connection: DB_TARGETS.dbUrl, pool: { min: 1, max: 1 } });
const variants: Record<string, (db: Knex) => Promise<ListedTask[]>> = {
  "preload (fw-a models)": listThroughModels({ defineModel, belongsTo, manyToMany }),
  "same 3 queries, no models": sameSql,
  "by hand, every column": byHandEveryColumn,
  "by hand": listByHand,
};
const names = Object.keys(variants);
const expected = JSON.stringify(await listByHand(db));
for (const name of names)
  if (JSON.stringify(await variants[name]!(db)) !== expected) throw new E_BENCH_RUN(name, "answered another list");
for (let i = 0; i < 100; i++) for (const name of names) await variants[name]!(db); // warm-up
const start = loadavg().map((x) => x.toFixed(2));
const blocks = Number(process.argv[2] ?? 40);
const per = 10;
const totals = new Map(names.map((name) => [name, 0]));
const ratios = new Map<string, number[]>(names.map((name) => [name, []]));
for (let b = 0; b < blocks; b++) {
  const cost = new Map<string, number>();
  for (const name of b % 2 ? [...names].reverse() : names) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < per; i++) JSON.stringify({ tasks: await variants[name]!(db) });
    const d = process.cpuUsage(t0);
    cost.set(name, d.user + d.system);
  }
  for (const name of names) {
    totals.set(name, totals.get(name)! + cost.get(name)!);
    ratios.get(name)!.push(cost.get(name)! / cost.get("by hand")!);
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
console.log(`load average at the start: ${start.join(" / ")}; ${blocks} blocks of ${per} lists, alternating`);
for (const name of names)
  console.log(
    `${name.padEnd(26)} ${(totals.get(name)! / (blocks * per)).toFixed(0).padStart(6)} us per list   against by hand (median of blocks): ${median(ratios.get(name)!).toFixed(2)}x`,
  );
await db.destroy();
process.exit(0);
