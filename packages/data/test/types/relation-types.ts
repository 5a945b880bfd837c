/**
 * What the type checker says about relations. Checked by `tsc` over test/ and by
 * relation-types.test.ts, which also removes each `@ts-expect-error` and requires an error there.
 */
import { RelatedRowMissing } from "../../src/index.js";
import { Project, Task, type TaskRow, User, type UserRow } from "../support/relation-models.js";

export async function relationTypes(task: TaskRow, user: UserRow): Promise<void> {
  const plain = await Task.rows().where("done", false);
  // @ts-expect-error a relation that was not preloaded is not on the row
  void plain[0]?.project;

  const withProject = await Task.preload("project");
  const name: string | undefined = withProject[0]?.project?.name;
  // @ts-expect-error preloading "project" does not load "assignees"
  void withProject[0]?.assignees;

  // @ts-expect-error a misspelt relation name
  void Task.preload("projet");
  // @ts-expect-error a misspelt name inside a path
  void Task.preload("project.ownr");
  // @ts-expect-error a relation of the related model, not of this one
  void Task.preload("owner");

  const nested = await Task.preload("project.owner").preload("assignees", (q) => q.where("name", "Ann"));
  const ownerName: string | undefined = nested[0]?.project?.owner?.name;
  const role: unknown = nested[0]?.assignees[0]?.pivot.role;
  // @ts-expect-error hasMany loads an array, not one row
  void nested[0]?.assignees.name;
  // @ts-expect-error a constraint sees the related model's columns
  void Task.preload("project", (q) => q.where("title", "x"));

  const staffed = await Project.preload("tasks", (q) => q.limit(3))
    .preload("tasks.assignees")
    .withCount("tasks");
  const assigneeNames: string[][] | undefined = staffed[0]?.tasks.map((t) => t.assignees.map((u) => u.name));
  const staffedCount: number | undefined = staffed[0]?.tasks_count;
  // @ts-expect-error the tasks' comments were not preloaded
  void staffed[0]?.tasks.map((t) => t.comments);

  const counted = await Project.withCount("tasks");
  const tasks: number | undefined = counted[0]?.tasks_count;
  // @ts-expect-error only the counted relation gets a count
  void counted[0]?.comments_count;

  const project = await Task.related(task, "project");
  const maybe: string | undefined = project?.name;
  // @ts-expect-error a belongsTo relation query gives one row or null
  void project?.length;
  const assignees = await Task.related(task, "assignees").where("name", "Ann");
  const first: string | undefined = assignees[0]?.name;
  await Task.related(task, "assignees").attach([user.id], { role: "lead" });
  // @ts-expect-error attach belongs to many-to-many relations
  void Task.related(task, "project").attach;
  await Project.related({ ...project!, owner_id: null }, "tasks").create({ title: "t", done: false });
  // @ts-expect-error a child's required columns are still required
  void Project.related(project!, "tasks").create({ done: false });

  const created = await Project.related(project!, "tasks").createMany([{ title: "a", done: false }]);
  const createdTitle: string | undefined = created[0]?.title;
  // @ts-expect-error createMany belongs to hasMany relations, not hasOne
  void User.related(user, "profile").createMany;
  const moved: TaskRow = await Task.related(task, "project").associate(project!);
  await Project.related(project!, "owner").dissociate();
  // @ts-expect-error associate takes a row of the related model
  void Task.related(task, "project").associate(user);
  // @ts-expect-error associate belongs to belongsTo relations
  void Project.related(project!, "tasks").associate;

  const everyTask = await Task.withTrashed().preload("project").orderBy("id");
  const trashedProject: string | undefined = everyTask[0]?.project?.name;
  // @ts-expect-error withTrashed() keeps the relation names checked
  void Task.onlyTrashed().preload("projet");

  const users = await User.rows();
  const hash: string | undefined = users[0]?.password_hash;
  const error: RelatedRowMissing = new RelatedRowMissing("tasks", "project_id", "project");
  void [
    name,
    ownerName,
    role,
    tasks,
    maybe,
    first,
    hash,
    error,
    createdTitle,
    moved,
    trashedProject,
    assigneeNames,
    staffedCount,
  ];
}
