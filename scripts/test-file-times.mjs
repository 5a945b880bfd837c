// A test reporter for run-tests.mjs: per test file, the time its top-level tests took (module loading
// left out) and how many passed and failed, one tab-separated line per file, slowest first. CI time
// is spent in a few long files; this says which, on every run. Then one line per failed test
// ("fail", file, the test's name, the first lines of its error), so a run's end names what failed even
// when the spec output above it is cut.
/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* testFileTimes(source) {
  /** @type {Map<string, { ms: number, pass: number, fail: number }>} */
  const files = new Map();
  /** @type {string[]} */
  const failed = [];
  for await (const event of source) {
    // The innermost failing tests: a suite fails with its tests and only repeats their error.
    if (event.type === "test:fail" && event.data.details?.type !== "suite") {
      const error = event.data.details?.error;
      const lines = String(error?.cause?.message ?? error?.message ?? error ?? "").split("\n");
      const message = lines
        .filter((line) => line.trim())
        .slice(0, 3)
        .join(" / ");
      const clean = (text) => String(text).replace(/[\t\n]/g, " ");
      failed.push(`fail\t${event.data.file ?? "(no file)"}\t${clean(event.data.name)}\t${clean(message)}\n`);
    }
    if ((event.type !== "test:pass" && event.type !== "test:fail") || event.data.nesting !== 0) continue;
    const file = event.data.file ?? "(no file)";
    const entry = files.get(file) ?? { ms: 0, pass: 0, fail: 0 };
    entry.ms += event.data.details?.duration_ms ?? 0;
    entry[event.type === "test:pass" ? "pass" : "fail"] += 1;
    files.set(file, entry);
  }
  const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
  for (const [file, { ms, pass, fail }] of rows) yield `${(ms / 1000).toFixed(1)}\t${pass}\t${fail}\t${file}\n`;
  yield* failed;
}
