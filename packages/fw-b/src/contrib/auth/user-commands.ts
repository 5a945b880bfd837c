/**
 * `fw-b :user create NAME --email ADDRESS [--admin | --role ROLE]` and `fw-b :user promote NAME
 * [--role ROLE]`: how the first administrator of a contrib app is made (signup only ever gives
 * the default role). The password is read from standard input when it is piped, else asked twice
 * without echo; never from the command line, where shell history and `ps` would keep it.
 */
import type { Knex } from "@fwkit/data";
import type { AppConfig } from "@fwkit/koa-host";
import type { CommandModule } from "yargs";
import { E_CONTRIB_NOT_MIGRATED, E_USER_COMMAND } from "../../errors.js";
import { contribSettings, type AuthSettings } from "../config.js";
import { CONTRIB_TABLES, createContribModels, type UserRow } from "../models.js";

/** What the command needs from the CLI: the app's config and a database connection. */
export interface UserCommandHost {
  config(args: Record<string, unknown>): Promise<AppConfig>;
  withDatabase<T>(config: AppConfig, work: (knex: Knex) => Promise<T>): Promise<T>;
}

/** Reads a password: the first line of piped standard input, or a prompt without echo (twice) on a terminal. */
async function readPassword(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = "";
    for await (const chunk of stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? "";
  }
  const first = await promptHidden("Password: ");
  if ((await promptHidden("Password again: ")) !== first) throw new E_USER_COMMAND("the two passwords differ");
  return first;
}

function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    let value = "";
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") {
          done();
          process.stderr.write("\n");
          resolve(value);
          return;
        }
        if (char === "\u0003") {
          done();
          reject(new E_USER_COMMAND("cancelled"));
          return;
        }
        value = char === "\u007f" || char === "\b" ? value.slice(0, -1) : value + char;
      }
    };
    const done = () => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
    };
    stdin.on("data", onData);
  });
}

/** The first message of a failed field check, or the value. */
function valid<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } };
  },
  value: unknown,
  what: string,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new E_USER_COMMAND(`${what}: ${result.error.issues[0]?.message ?? "invalid"}`);
  return result.data;
}

function roleFrom(auth: AuthSettings, role: unknown, fallback: string): string {
  const chosen = typeof role === "string" && role !== "" ? role : fallback;
  if (!Object.hasOwn(auth.roles, chosen))
    throw new E_USER_COMMAND(
      `there is no role ${JSON.stringify(chosen)}; the roles are ${Object.keys(auth.roles).join(", ")}`,
    );
  return chosen;
}

/** The `:user` command of the fw-b CLI. */
export function userCliCommands(host: UserCommandHost): CommandModule[] {
  return [
    {
      command: ":user <action> <name>",
      describe:
        "contrib.auth accounts: `create NAME --email ADDRESS [--admin|--role ROLE]` (password from stdin or asked), `promote NAME [--role ROLE]`",
      builder: (y) =>
        y
          .positional("action", { type: "string", choices: ["create", "promote"], demandOption: true })
          .positional("name", {
            type: "string",
            demandOption: true,
            describe: "a username (promote: or an email address)",
          })
          .option("email", { type: "string", describe: "create: the account's email address" })
          .option("display-name", { type: "string", describe: "create: the name shown (default: the username)" })
          .option("admin", {
            type: "boolean",
            default: false,
            describe: "create: with the admin role (contrib.auth.adminRole)",
          })
          .option("role", {
            type: "string",
            describe: "the role to give (create default: contrib.auth.defaultRole; promote default: the admin role)",
          }),
      handler: async (args) => {
        // Loaded by this command only: every other fw-b command starts without zod, i18next or the hashers.
        const [{ fields }, { createI18n }, { hashPassword }, { passwordPolicyOf, resolveSecurityConfig }] =
          await Promise.all([
            import("../forms.js"),
            import("../i18n/i18n.js"),
            import("@fwkit/security"),
            import("@fwkit/security/plugin"),
          ]);
        const config = await host.config(args);
        const settings = contribSettings(config);
        const auth = settings.auth;
        if (!auth) throw new E_USER_COMMAND("contrib.auth is not on in this app's config");
        const i18n = createI18n(String(config["root"] ?? process.cwd()), settings.i18n);
        const t = i18n.translator(i18n.fallback);
        const f = fields(t);
        const create = args["action"] === "create";
        const role = create
          ? roleFrom(auth, args["role"], args["admin"] ? auth.adminRole : auth.defaultRole)
          : roleFrom(auth, args["role"], auth.adminRole);
        if (create && args["admin"] && typeof args["role"] === "string" && args["role"] !== auth.adminRole) {
          throw new E_USER_COMMAND("give either --admin or --role, not both");
        }
        const username = create
          ? valid(f.username, args["name"], "username")
          : String(args["name"]).trim().toLowerCase();
        const email = create ? valid(f.email, args["email"], "--email") : undefined;
        const displayName = create
          ? valid(f.text(100, { noMarkup: true }), args["displayName"] ?? username, "--display-name")
          : undefined;
        // The one resolved password policy of the app (its passwordAlgorithm, bcryptCost...).
        const policy = create
          ? passwordPolicyOf(
              resolveSecurityConfig({ ...config, secretKey: config["secretKey"] || "not-used-by-the-user-command" }),
            )
          : undefined;
        const password = create ? valid(f.password, await readPassword(), "password") : undefined;
        await host.withDatabase(config, async (knex) => {
          if (!(await knex.schema.hasTable(CONTRIB_TABLES.users)))
            throw new E_CONTRIB_NOT_MIGRATED(CONTRIB_TABLES.users);
          const models = createContribModels();
          models.bind(knex);
          const users = models.users.withTrashed();
          if (create) {
            if (await users.findBy({ username } as Partial<UserRow>))
              throw new E_USER_COMMAND(`the username ${username} is taken`);
            if (await users.findBy({ email } as Partial<UserRow>))
              throw new E_USER_COMMAND(`an account already uses ${email}`);
            await models.users.create({
              username,
              email: email!,
              name: displayName!,
              password_hash: await hashPassword(password!, policy),
              role,
              active: true,
              // The operator typed the address: it counts as confirmed.
              email_verified_at: new Date(),
              locale: null,
              last_login_at: null,
              deleted_at: null,
            });
            console.log(`Created ${username} <${email}> with the role ${role}.`);
            return;
          }
          const user =
            (await models.users.findBy({ username } as Partial<UserRow>)) ??
            (await models.users.findBy({ email: username } as Partial<UserRow>));
          if (!user) throw new E_USER_COMMAND(`no account is named ${JSON.stringify(username)} (by username or email)`);
          await models.users.update(user.id, { role });
          console.log(`${user.username} now has the role ${role}.`);
        });
      },
    },
  ];
}
