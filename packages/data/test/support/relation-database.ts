/**
 * A database of its own for one dialect's relation suite: a fresh SQLite file, or a database
 * created on the PostgreSQL / MariaDB server for this run and dropped afterwards, so the suite can
 * use the conventional table names without meeting other tests' tables.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireServer } from "@fwkit/test-servers";
import { connect, type Database } from "../../src/index.js";

/** An open database and how to remove it. */
export interface OwnDatabase {
  readonly db: Database;
  drop(): Promise<void>;
}

const name = `fwkit_rel_${process.pid}_${Math.floor(Math.random() * 1e6)}`;

/** A fresh database on `dialect`. */
export async function ownDatabase(dialect: "sqlite" | "postgres" | "mysql"): Promise<OwnDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "data-relations-"));
    const db = await connect("sqlite:app.db", { root: dir });
    return {
      db,
      async drop() {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = await requireServer(dialect);
  const admin = await connect(serverUrl);
  await admin.knex.raw(`create database ${name}`);
  await admin.close();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await connect(url.toString());
  return {
    db,
    async drop() {
      await db.close();
      const again = await connect(serverUrl);
      await again.knex.raw(`drop database if exists ${name}`);
      await again.close();
    },
  };
}
