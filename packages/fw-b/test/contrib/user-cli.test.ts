// The first administrator of a contrib app. `fw-b :user create NAME --email ADDRESS
// --admin` (password from standard input) makes a confirmed account with the admin role;
// `fw-b :user promote NAME` raises a signed-up user to the admin role. Run as a user runs them: the
// fw-b command line in a child process, on an app folder with lib/config.ts and a SQLite file.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { connect } from "@fwkit/data";
import { verifyPassword } from "@fwkit/security";

const main = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "fw-b-user-cli-"));

/** Runs `fw-b ARGS` in the app folder, with `input` on standard input. */
function fwb(input: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(
    process.execPath,
    ["--conditions=source", `--import=${import.meta.resolve("tsx")}`, main, ...args],
    {
      cwd: root,
      input,
      encoding: "utf8",
      env: { ...process.env, FW_TS_LOADER: "", APP_ENV: "" },
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function userRow(
  username: string,
): Promise<{ role: string; password_hash: string | null; email: string; email_verified_at: unknown } | undefined> {
  const db = await connect("sqlite:data/app.db", { root });
  try {
    return await db.knex("fwb_users").where({ username }).first();
  } finally {
    await db.close();
  }
}

describe("fw-b :user create / promote", () => {
  before(() => {
    mkdirSync(join(root, "lib"), { recursive: true });
    mkdirSync(join(root, "data"), { recursive: true });
    writeFileSync(
      join(root, "lib", "config.ts"),
      'export const config = { dbUrl: "sqlite:data/app.db", bcryptCost: 5, contrib: { auth: true, admin: true } };\n',
    );
    const migrated = fwb("", ":migrate");
    assert.equal(migrated.status, 0, migrated.stderr);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test(":user create --admin makes a confirmed admin whose password (from stdin) is hashed with the app's cost", async () => {
    const made = fwb("first-admin-pass\n", ":user", "create", "Root", "--email", "Root@Example.test", "--admin");
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, /Created root <root@example\.test> with the role admin\./);
    const row = await userRow("root");
    assert.ok(row, "the account exists");
    assert.equal(row.role, "admin");
    assert.equal(row.email, "root@example.test");
    assert.ok(row.email_verified_at, "an address typed by the operator counts as confirmed");
    assert.match(row.password_hash ?? "", /^\$2b\$05\$/, "bcryptCost of lib/config.ts");
    assert.equal(await verifyPassword("first-admin-pass", row.password_hash!), true);
  });

  test(":user create without --admin gives the default role; a taken name, a bad role or a short password fail with the reason", async () => {
    const member = fwb("member-password-1\n", ":user", "create", "ann", "--email", "ann@example.test");
    assert.equal(member.status, 0, member.stderr);
    assert.equal((await userRow("ann"))?.role, "member");
    const taken = fwb("another-password-1\n", ":user", "create", "ann", "--email", "other@example.test");
    assert.equal(taken.status, 1);
    assert.match(taken.stderr, /E_USER_COMMAND: fw-b :user: the username ann is taken/);
    const role = fwb("another-password-1\n", ":user", "create", "bea", "--email", "bea@example.test", "--role", "king");
    assert.equal(role.status, 1);
    assert.match(role.stderr, /there is no role "king"; the roles are member, editor, admin, superadmin/);
    const short = fwb("short\n", ":user", "create", "cid", "--email", "cid@example.test");
    assert.equal(short.status, 1);
    assert.match(short.stderr, /E_USER_COMMAND: fw-b :user: password: /);
    assert.equal(await userRow("cid"), undefined, "nothing was written");
  });

  test(":user promote NAME gives the admin role (by username or email); --role picks another; an unknown account fails", async () => {
    const promoted = fwb("", ":user", "promote", "ann");
    assert.equal(promoted.status, 0, promoted.stderr);
    assert.match(promoted.stdout, /ann now has the role admin\./);
    assert.equal((await userRow("ann"))?.role, "admin");
    const byEmail = fwb("", ":user", "promote", "ANN@example.test", "--role", "superadmin");
    assert.equal(byEmail.status, 0, byEmail.stderr);
    assert.equal((await userRow("ann"))?.role, "superadmin");
    const unknown = fwb("", ":user", "promote", "nobody");
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no account is named "nobody"/);
  });
});
