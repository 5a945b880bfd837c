/**
 * No secret in clear in any store: after the suite's flows have run (login, password changes,
 * resets and contact mails, with the reset and contact mails going through the app's Redis job
 * queue), every store the app writes is read back whole and searched for every secret the suite
 * knows: each token and tokened link mailed (taken from the SMTP server, the intended recipient)
 * and each suite user's password. The stores are every Redis key and value under the app's
 * prefixes (sessions, counters, the job queue and its job payloads), every row of every database
 * table, and the app's log. A new flow or store the app gains is covered as soon as it writes.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { connect } from "@fwkit/data";
import { serverUrls } from "@fwkit/test-servers";
import type { SuiteUser, Target } from "../target.js";

/** Every key and value under `prefix`, as text, read in one script (strings, hashes, lists, sets, streams). */
export function redisDump(prefix: string): string[] {
  const script = `local out = {} local cursor = '0'
repeat
  local r = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = r[1]
  for _, k in ipairs(r[2]) do
    local t = redis.call('TYPE', k).ok
    local v = ''
    if t == 'string' then v = redis.call('GET', k)
    elseif t == 'hash' then v = table.concat(redis.call('HGETALL', k), ' ')
    elseif t == 'list' then v = table.concat(redis.call('LRANGE', k, 0, -1), ' ')
    elseif t == 'set' then v = table.concat(redis.call('SMEMBERS', k), ' ')
    elseif t == 'zset' then v = table.concat(redis.call('ZRANGE', k, 0, -1), ' ')
    elseif t == 'stream' then
      for _, e in ipairs(redis.call('XRANGE', k, '-', '+')) do v = v .. table.concat(e[2], ' ') .. ' ' end
    end
    table.insert(out, k .. ' => ' .. v)
  end
until cursor == '0'
return out`;
  const result = spawnSync("redis-cli", ["-u", serverUrls.redis, "--raw", "EVAL", script, "0", `${prefix}*`], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) assert.fail(`redis-cli EVAL failed: ${result.stderr}`);
  return result.stdout.split(/\n(?=\S+ => )/).filter((entry) => entry.trim() !== "");
}

/** Deletes every key under `prefix` (a test's own queue). */
export function dropRedisPrefix(prefix: string): void {
  const script = `local cursor = '0' local n = 0
repeat
  local r = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = r[1]
  for _, k in ipairs(r[2]) do redis.call('DEL', k) n = n + 1 end
until cursor == '0'
return n`;
  spawnSync("redis-cli", ["-u", serverUrls.redis, "EVAL", script, "0", `${prefix}*`], { encoding: "utf8" });
}

/** The secrets in a mailed text: each link with a long token in its path or query, and the token itself. */
export function mailedSecrets(text: string): string[] {
  const secrets = new Set<string>();
  for (const [link] of text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) {
    const url = new URL(link);
    const parts = [...url.pathname.split("/"), ...[...url.searchParams.values()]];
    const tokens = parts.filter((part) => /^[A-Za-z0-9_.~%-]{16,}$/.test(part));
    for (const token of tokens) secrets.add(token);
    if (tokens.length > 0) secrets.add(link);
  }
  return [...secrets];
}

/** Every row of every table of the app's database, as text, one line per table. */
async function databaseDump(app: Target): Promise<string[]> {
  const db = await connect("sqlite:data/app.db", { root: app.root });
  try {
    const tables = (await db.knex.raw("select name from sqlite_master where type = 'table'")) as { name: string }[];
    const out: string[] = [];
    for (const { name } of tables) out.push(`${name}: ${JSON.stringify(await db.knex(name).select("*"))}`);
    return out;
  } finally {
    await db.close();
  }
}

/** Registers the store scan against the fw-b target (Redis sessions, a Redis queue, SMTP). */
export function storeScanCases(target: () => Target, users: readonly SuiteUser[]): void {
  test("after the suite's flows no store holds a mailed token or link, or a password, in clear", async () => {
    const app = target();
    assert.ok(app.mail, "the target mails through SMTP");
    assert.ok(app.sessionPrefix && app.queuePrefix, "the target keeps sessions and its job queue in Redis");
    const mails = app.mail.messages.map((mail) => mail.parsed.text ?? "");
    const mailed = [...new Set(mails.flatMap(mailedSecrets))];
    // The suite's flows mailed reset links: the scan has something to look for.
    assert.ok(
      mailed.some((secret) => secret.includes("/reset-password/")),
      `a reset link was mailed: ${mails.length} mails`,
    );
    const redis = [...redisDump(app.sessionPrefix), ...redisDump(app.queuePrefix)];
    assert.ok(
      redis.some((entry) => entry.includes("fwkit.deliver-mail")),
      "the mails went through the Redis job queue",
    );
    const stores: Array<[string, string[]]> = [
      ["Redis", redis],
      ["the database", await databaseDump(app)],
      ["the log", app.log().split("\n")],
    ];
    const secrets: Array<[string, string]> = [
      ...mailed.map((secret): [string, string] => ["a mailed token or link", secret]),
      ...users.map((user): [string, string] => [`${user.username}'s password`, user.password]),
    ];
    const found: string[] = [];
    for (const [store, entries] of stores)
      for (const entry of entries)
        for (const [what, secret] of secrets)
          if (entry.includes(secret)) found.push(`${store} holds ${what} (${secret}): ${entry.slice(0, 300)}`);
    assert.deepEqual(found, []);
  });
}
