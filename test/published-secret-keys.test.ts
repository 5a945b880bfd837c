// Every secret key this repository spells out (in tests, docs, scaffolds, apps) is refused in
// production: a key published here is no secret, and a user who copies one must not start with it.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { secretWeakness } from "../packages/koa-host/src/secret-strength.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const TEXT = /\.(ts|mts|mjs|js|md|yaml|yml|json|env|sh|njk|pug)$/;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", "dist", ".git", ".turbo", "coverage"].includes(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(full));
    else if (TEXT.test(entry.name) && entry.name !== "pnpm-lock.yaml") out.push(full);
  }
  return out;
}

/**
 * The values a line gives a secret: quoted strings (or `NAME=value`) on a line that names a secret
 * key setting (`secretKey`, `SECRET_KEY`, `jwtSecret`, `secretKeyFallbacks`, a constant named
 * `...SECRET...`), 16 characters or more without spaces inside code.
 */
export function spelledKeys(text: string): string[] {
  const keys: string[] = [];
  for (const line of text.split("\n")) {
    if (
      !/secret[_ ]?key|jwt[_ ]?secret|secretKeyFallbacks|\bSECRET\b|[A-Z_]*SECRET[A-Z_]*\s*=|secret:\s*["'`]/i.test(
        line,
      )
    )
      continue;
    for (const match of line.matchAll(/["'`]([^"'`\s$\\]{16,})["'`]|\b[A-Z_]*SECRET[A-Z_]*=([^\s"'`$\\]{16,})/g)) {
      const value = match[1] ?? match[2]!;
      // Names of settings, errors and paths are not values.
      if (/^[A-Z0-9_]+$/.test(value) || /^E_/.test(value) || value.includes("/") || /^[a-z]+[A-Z]\w*$/.test(value))
        continue;
      keys.push(value);
    }
  }
  return keys;
}

test("every secret key spelled out in this repository is refused in production", () => {
  const found = new Map<string, string>();
  for (const dir of ["packages", "apps", "docs", "test", "scripts"]) {
    for (const file of files(join(root, dir))) {
      for (const key of spelledKeys(readFileSync(file, "utf8"))) found.set(key, file.slice(root.length));
    }
  }
  assert.ok(found.size >= 20, `the keys of the tests and docs are found (${found.size})`);
  const accepted = [...found].filter(([key]) => secretWeakness(key) === undefined);
  assert.deepEqual(
    accepted.map(([key, file]) => `${key} (${file})`),
    [],
    "a key spelled out here would be accepted in production: make tests generate theirs (randomBytes(32).toString('base64url'))",
  );
});

test("the well-known weak keys of tutorials are refused, whatever their length", () => {
  for (const key of [
    "keyboard cat keyboard cat keyboard cat",
    "your-256-bit-secret-your-256-bit-secret",
    "0123456789abcdef0123456789abcdef",
    "change.me.change.me.change.me.change.me",
  ])
    assert.ok(secretWeakness(key), key);
});
