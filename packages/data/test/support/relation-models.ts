/**
 * The models the relation suite runs against: users (a hidden password hash), profiles (hasOne),
 * projects (an owner, tasks, comments through tasks), tasks (soft-deleted, a project, assignees
 * through the task_assignees pivot with a role) and comments. Table names are the conventional
 * ones, so the default keys are what is tested; each dialect's suite gets a database of its own.
 */
import type { Knex } from "knex";
import {
  belongsTo,
  type BaseRow,
  defineModel,
  hasMany,
  hasManyThrough,
  hasOne,
  manyToMany,
  modelTimestamps,
  type SoftDeleteRow,
} from "../../src/index.js";

export interface UserRow extends BaseRow {
  id: number;
  name: string;
  password_hash: string;
}
export interface ProfileRow extends BaseRow {
  id: number;
  user_id: number;
  bio: string;
}
export interface ProjectRow extends BaseRow {
  id: number;
  name: string;
  owner_id: number | null;
}
export interface TaskRow extends BaseRow, SoftDeleteRow {
  id: number;
  title: string;
  done: boolean;
  project_id: number;
}
export interface CommentRow extends BaseRow {
  id: number;
  body: string;
  task_id: number;
}

export const User = defineModel<UserRow>("users", { hidden: ["password_hash"] }).relations({
  profile: () => hasOne(Profile),
  tasks: () => manyToMany(Task, { pivot: "task_assignees", pivotColumns: ["role"] }),
  ownedProjects: () => hasMany(Project, { foreignKey: "owner_id" }),
});
export const Profile = defineModel<ProfileRow>("profiles").relations({ user: () => belongsTo(User) });
export const Project = defineModel<ProjectRow>("projects").relations({
  owner: () => belongsTo(User),
  tasks: () => hasMany(Task),
  comments: () => hasManyThrough(Comment, Task),
});
export const Task = defineModel<TaskRow>("tasks", { softDelete: true }).relations({
  project: () => belongsTo(Project),
  assignees: () => manyToMany(User, { pivotColumns: ["role"] }),
  comments: () => hasMany(Comment),
});
export const Comment = defineModel<CommentRow>("comments").relations({ task: () => belongsTo(Task) });

/** Every model of the suite. */
export const relationModels = { User, Profile, Project, Task, Comment };

/** Creates the suite's tables (with their foreign keys and ON DELETE rules). */
export async function createRelationTables(knex: Knex): Promise<void> {
  await knex.schema.createTable("users", (t) => {
    t.increments("id");
    t.string("name", 100).notNullable();
    t.string("password_hash", 100).notNullable();
    modelTimestamps(t);
  });
  await knex.schema.createTable("profiles", (t) => {
    t.increments("id");
    t.integer("user_id").unsigned().notNullable().references("id").inTable("users").onDelete("CASCADE");
    t.string("bio", 200).notNullable();
    modelTimestamps(t);
  });
  await knex.schema.createTable("projects", (t) => {
    t.increments("id");
    t.string("name", 100).notNullable();
    t.integer("owner_id").unsigned().nullable().references("id").inTable("users").onDelete("SET NULL");
    modelTimestamps(t);
  });
  await knex.schema.createTable("tasks", (t) => {
    t.increments("id");
    t.string("title", 100).notNullable();
    t.boolean("done").notNullable().defaultTo(false);
    t.integer("project_id").unsigned().notNullable().references("id").inTable("projects").onDelete("RESTRICT");
    t.index(["project_id"]);
    modelTimestamps(t, { softDelete: true });
  });
  await knex.schema.createTable("task_assignees", (t) => {
    t.integer("task_id").unsigned().notNullable().references("id").inTable("tasks").onDelete("CASCADE");
    t.integer("user_id").unsigned().notNullable().references("id").inTable("users").onDelete("CASCADE");
    t.string("role", 20).nullable();
    t.primary(["task_id", "user_id"]);
  });
  await knex.schema.createTable("comments", (t) => {
    t.increments("id");
    t.string("body", 200).notNullable();
    t.integer("task_id").unsigned().notNullable().references("id").inTable("tasks").onDelete("CASCADE");
    modelTimestamps(t);
  });
}

/** Binds every model of the suite to `knex`. */
export function bindRelationModels(knex: Knex): void {
  for (const model of Object.values(relationModels)) model.bind(knex);
}
