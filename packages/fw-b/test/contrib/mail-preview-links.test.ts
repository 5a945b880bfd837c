// The mail previews' sample data (templates/contrib/**/<mail>.preview.json) links to pages contrib
// really serves: a preview that shows /verify/... where the route is /verify-email/... teaches the
// wrong link.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const root = join(import.meta.dirname, "..", "..");

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    return statSync(full).isDirectory() ? files(full, suffix) : entry.endsWith(suffix) ? [full] : [];
  });
}

function urls(value: unknown): string[] {
  if (typeof value === "string") return /^https?:\/\//.test(value) ? [value] : [];
  if (value && typeof value === "object") return Object.values(value).flatMap(urls);
  return [];
}

test("every link in a contrib mail preview is a path contrib serves", () => {
  // A class's @route is its prefix; a method's (indented) @route follows it.
  const patterns = files(join(root, "src", "contrib"), ".ts").flatMap((file) => {
    let prefix = "";
    return readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line) => {
        const match = /^(\s*)@route\("([^"]+)"/.exec(line);
        if (!match) return [];
        if (match[1] === "") prefix = match[2]!;
        return [match[1] === "" ? match[2]! : `${prefix}${match[2]}`];
      });
  });
  assert.ok(patterns.includes("/verify-email/:token"), `contrib's routes were found: ${patterns.join(", ")}`);
  const matchers = patterns.map((pattern) => new RegExp(`^${pattern.replace(/:\w+/g, "[^/]+")}$`));
  const previews = files(join(root, "templates", "contrib"), ".preview.json");
  assert.ok(previews.length >= 3, "the previews were found");
  const wrong = previews.flatMap((file) =>
    urls(JSON.parse(readFileSync(file, "utf8")))
      .filter((url) => !matchers.some((matcher) => matcher.test(new URL(url).pathname)))
      .map((url) => `${file.slice(root.length + 1)}: ${url}`),
  );
  assert.deepEqual(wrong, []);
});
