// Every error code defined in a package's errors.ts is documented in docs/errors.md (Fastify's rule).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

function errorFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...errorFiles(full));
    else if (entry.name === "errors.ts") out.push(full);
  }
  return out;
}

test("every error code is documented in docs/errors.md", () => {
  const doc = readFileSync(join(root, "docs/errors.md"), "utf8");
  const files = errorFiles(join(root, "packages"));
  assert.ok(files.length >= 2, "errors.ts files are found");
  const missing: string[] = [];
  let count = 0;
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(/createError(?:<[^>]*>)?\(\s*"(E_[A-Z0-9_]+)"/g)) {
      count++;
      if (!doc.includes(`\`${match[1]}\``)) missing.push(`${match[1]} (${file.slice(root.length)})`);
    }
  }
  assert.ok(count > 10, `found ${count} codes`);
  assert.deepEqual(missing, [], `document these codes in docs/errors.md: ${missing.join(", ")}`);
});

test("every package has exactly one errors.ts", () => {
  for (const name of readdirSync(join(root, "packages"))) {
    if (name === "test-servers" || name === "conformance") continue;
    assert.ok(existsSync(join(root, "packages", name, "src", "errors.ts")), `packages/${name}/src/errors.ts exists`);
  }
});
