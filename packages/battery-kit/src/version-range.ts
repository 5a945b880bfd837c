/**
 * Whether a package's version satisfies a peer dependency range, for the ranges package.json files
 * use (`^5.8.0`, `~1.2.0`, `>=2 <4`, `1.x`, `^4.9.0 || ^5.10.6`, `*`). A pre-release (`6.0.0-beta.1`)
 * satisfies only a range that names a pre-release of the same version, as npm decides.
 */

type Triple = readonly [number, number, number];

interface Parsed {
  readonly triple: Triple;
  readonly pre: string;
}

/** `1.2.3-rc.1` -> [1, 2, 3] and "rc.1"; missing or `x` parts are undefined. */
function parseLoose(text: string): { parts: (number | undefined)[]; pre: string } | undefined {
  const match = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(
    text.trim(),
  );
  if (!match) return undefined;
  const part = (value: string | undefined) =>
    value === undefined || /^[xX*]$/.test(value) ? undefined : Number(value);
  return { parts: [part(match[1]), part(match[2]), part(match[3])], pre: match[4] ?? "" };
}

function compare(a: Parsed, b: Parsed): number {
  for (let i = 0; i < 3; i++) if (a.triple[i] !== b.triple[i]) return a.triple[i]! - b.triple[i]!;
  if (a.pre === b.pre) return 0;
  if (a.pre === "") return 1;
  if (b.pre === "") return -1;
  return a.pre < b.pre ? -1 : 1;
}

/** One comparator set (space-separated, all must hold) as lower/upper bounds. */
function comparators(set: string): { op: string; bound: Parsed }[] | undefined {
  const out: { op: string; bound: Parsed }[] = [];
  const tokens = set
    .trim()
    .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
    .split(/\s+/)
    .filter(Boolean);
  for (const token of tokens) {
    const [, op = "", rest = ""] = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(token)!;
    const parsed = parseLoose(rest);
    if (!parsed) return undefined;
    const [major, minor, patch] = parsed.parts;
    const at = (a: number, b: number, c: number, pre = ""): Parsed => ({ triple: [a, b, c], pre });
    if (major === undefined) continue; // `*` / `x`: anything
    const low = at(major, minor ?? 0, patch ?? 0, parsed.pre);
    if (op === "^") {
      out.push({ op: ">=", bound: low });
      const up =
        major > 0 || minor === undefined
          ? at(major + 1, 0, 0)
          : minor > 0 || patch === undefined
            ? at(0, minor + 1, 0)
            : at(0, 0, patch + 1);
      out.push({ op: "<", bound: { ...up, pre: "0" } });
    } else if (op === "~" || ((op === "" || op === "=") && (minor === undefined || patch === undefined))) {
      out.push({ op: ">=", bound: low });
      const up = minor === undefined ? at(major + 1, 0, 0) : at(major, minor + 1, 0);
      out.push({ op: "<", bound: { ...up, pre: "0" } });
    } else {
      out.push({ op: op === "" ? "=" : op, bound: low });
    }
  }
  return out;
}

/** Whether `version` satisfies `range`; an unreadable version or range counts as satisfying (npm checked it). */
export function satisfiesRange(version: string, range: string): boolean {
  const parsedVersion = parseLoose(version);
  const [major, minor, patch] = parsedVersion?.parts ?? [];
  if (!parsedVersion || major === undefined || minor === undefined || patch === undefined) return true;
  const v: Parsed = { triple: [major, minor, patch], pre: parsedVersion.pre };
  let readable = false;
  for (const set of range.split("||")) {
    const list = comparators(set);
    if (!list) continue;
    readable = true;
    // A pre-release only matches a set that names a pre-release of the same major.minor.patch.
    if (
      v.pre &&
      !list.some((c) => c.bound.pre && c.bound.pre !== "0" && compare({ ...c.bound, pre: "" }, { ...v, pre: "" }) === 0)
    )
      continue;
    const holds = list.every(({ op, bound }) => {
      const order = compare(v, bound);
      return op === ">="
        ? order >= 0
        : op === ">"
          ? order > 0
          : op === "<"
            ? order < 0
            : op === "<="
              ? order <= 0
              : order === 0;
    });
    if (holds) return true;
  }
  return !readable;
}
