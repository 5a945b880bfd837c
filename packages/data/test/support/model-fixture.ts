/**
 * What the model suite's cases share: the row types, the two models on tables unique to this
 * run, the open database, and an assertion for coded errors.
 */
import assert from "node:assert/strict";
import type { Knex } from "knex";
import { defineModel, type BaseRow, type Database, type Model, type SoftDeleteRow } from "../../src/index.js";

export interface UserRow extends BaseRow {
  id: number;
  email: string;
  name: string;
  bio: string | null;
  published_at: Date | null;
}

export interface PostRow extends BaseRow, SoftDeleteRow {
  id: number;
  title: string;
  author_id: number | null;
}

/** The models and database one dialect's suite runs against. */
export interface ModelFixture {
  readonly usersTable: string;
  readonly postsTable: string;
  readonly User: Model<UserRow>;
  readonly Post: Model<PostRow>;
  /** The open database (set by the suite's before hook). */
  db(): Database;
  knex(): Knex;
}

/** Models on table names unique to this process and moment. */
export function modelFixture(): ModelFixture & { open(db: Database): void } {
  const suffix = `${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const usersTable = `data_users_${suffix}`;
  const postsTable = `data_posts_${suffix}`;
  let database: Database | undefined;
  return {
    usersTable,
    postsTable,
    User: defineModel<UserRow>(usersTable, { dates: ["published_at"] }),
    Post: defineModel<PostRow>(postsTable, { softDelete: true }),
    open(db) {
      database = db;
    },
    db() {
      assert.ok(database, "the database is open");
      return database;
    },
    knex() {
      return this.db().knex;
    },
  };
}

/** Awaits `promise` and asserts it rejects with a coded error of this code and status. */
export async function rejectsWith(promise: Promise<unknown>, code: string, status: number): Promise<Error> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof Error, `expected ${code}, but nothing was thrown`);
  assert.equal((caught as { code?: string }).code, code, `expected ${code}, got: ${caught.message}`);
  assert.equal((caught as { status?: number }).status, status);
  return caught;
}
