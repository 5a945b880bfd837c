import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { createFileProbe } from "../src/file-probe.js";

/** A templates-like folder with files, folders, links (good and broken) and names differing by case. */
function makeTree(): string {
  const root = mkdtempSync(join(tmpdir(), "file-probe-"));
  const file = (path: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), "x");
  };
  file("main/Index/index.html");
  file("main/Index/page.md");
  file("main/Blog/show.html");
  file("main/blog/lower.html");
  file("admin/users/Users/list.html");
  file("error.html");
  file("café/é.html");
  mkdirSync(join(root, "main/Folder/dir.html"), { recursive: true });
  symlinkSync(join(root, "main/Blog"), join(root, "main/Linked"));
  symlinkSync(join(root, "main/Blog/show.html"), join(root, "main/Index/alias.html"));
  symlinkSync(join(root, "nowhere"), join(root, "main/Index/broken.html"));
  symlinkSync(join(root, "nowhere"), join(root, "main/Broken"));
  return root;
}

const NAMES = [
  "main/Index/index.html",
  "main/Index/index.md",
  "main/Index/page.md",
  "main/Index/page.html",
  "main/Index/alias.html",
  "main/Index/broken.html",
  "main/Index/missing.html",
  "main/Blog/show.html",
  "main/blog/show.html",
  "main/blog/lower.html",
  "main/BLOG/show.html",
  "main/Linked/show.html",
  "main/Broken/show.html",
  "main/Folder/dir.html",
  "main/Folder/dir.html/x",
  "main/Index/index.html/x",
  "admin/users/Users/list.html",
  "admin/users/Users",
  "admin/Users/Users/list.html",
  "error.html",
  "error/500.html",
  "missing/x/y.html",
  "café/é.html",
  "cafe\u0301/e\u0301.html",
  "",
  ".",
  "main/../error.html",
  "main//Index/index.html",
  "/error.html",
  "main/Index/",
];

describe("createFileProbe", () => {
  test("answers as existsSync(join(root, name)) for files, folders, links and missing names", () => {
    const root = makeTree();
    try {
      const probe = createFileProbe();
      for (const name of NAMES) assert.equal(probe(root, name), existsSync(join(root, name)), name);
      // A second root, a missing root, and a file as root.
      const other = makeTree();
      for (const name of NAMES) assert.equal(probe(other, name), existsSync(join(other, name)), `other: ${name}`);
      rmSync(other, { recursive: true });
      assert.equal(probe(join(root, "absent"), "main/Index/index.html"), false);
      assert.equal(probe(join(root, "error.html"), "x"), false);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test("property: any name made of the tree's parts gives existsSync's answer", () => {
    const root = makeTree();
    try {
      const part = fc.constantFrom(
        "main",
        "Index",
        "index.html",
        "page.md",
        "Blog",
        "blog",
        "show.html",
        "Linked",
        "Broken",
        "Folder",
        "dir.html",
        "café",
        "é.html",
        "x",
        "..",
        ".",
        "",
      );
      fc.assert(
        fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
          const name = parts.join("/");
          assert.equal(createFileProbe()(root, name), existsSync(join(root, name)), name);
        }),
      );
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test("a file added after the current job is found by the next call", async () => {
    const root = makeTree();
    try {
      const probe = createFileProbe();
      assert.equal(probe(root, "main/Index/later.html"), false);
      writeFileSync(join(root, "main/Index/later.html"), "x");
      await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(probe(root, "main/Index/later.html"), true);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test("a folder it may not list is left to existsSync", () => {
    const root = makeTree();
    try {
      chmodSync(root, 0o755);
      chmodSync(join(root, "main/Index"), 0o311);
      const check = [
        `const { createFileProbe } = await import(${JSON.stringify(new URL("../src/file-probe.ts", import.meta.url).href)});`,
        `const probe = createFileProbe();`,
        `console.log(JSON.stringify([probe(${JSON.stringify(root)}, "main/Index/index.html"), probe(${JSON.stringify(root)}, "main/Index/nope.html")]));`,
      ].join("\n");
      // Root lists any folder: the check then runs as an unprivileged user, who cannot list it.
      const asRoot = process.getuid?.() === 0;
      const result = spawnSync(
        process.execPath,
        [`--import=${import.meta.resolve("tsx")}`, "--input-type=module", "-e", check],
        {
          encoding: "utf8",
          cwd: tmpdir(),
          ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
        },
      );
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout.trim()), [true, false]);
    } finally {
      chmodSync(join(root, "main/Index"), 0o755);
      rmSync(root, { recursive: true });
    }
  });
});
