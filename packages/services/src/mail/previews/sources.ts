/**
 * The mails the preview page lists: every mail template of the app (`templates/mail/<name>.*`) and
 * of the template folders plugins add (fw-b's contrib mails, `contrib/<module>/mail/<name>.*`),
 * each with the preview data written next to it: `mail/<name>.preview.ts` (or `.js`) exporting
 * `preview`, an object or a function of the language, or `mail/<name>.preview.json`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";

/** One mail template the page can render. */
export interface MailSource {
  /** The name `sendMail({ template })` takes (`welcome`, `contrib/auth/verify`). */
  readonly name: string;
  /** The folder its files are in, for the page. */
  readonly folder: string;
  /** Its preview data file, if any. */
  readonly previewFile?: string;
}

const PART = /\.(subject\.txt|txt|html|pug|njk)$/;
const PREVIEW = /\.preview\.(ts|mts|js|mjs|json)$/;
const PREVIEW_EXTENSIONS = ["ts", "mts", "js", "mjs", "json"];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

/** Mail names of one `mail/` folder; `prefix` is what the name starts with (`contrib/auth/`). */
function mailsOf(mailDir: string, prefix: string): MailSource[] {
  const names = new Set<string>();
  for (const file of filesUnder(mailDir)) {
    if (PREVIEW.test(file) || !PART.test(file)) continue;
    names.add(relative(mailDir, file).split(sep).join("/").replace(PART, ""));
  }
  return [...names].sort().map((name) => {
    const previewFile = PREVIEW_EXTENSIONS.map((ext) => join(mailDir, `${name}.preview.${ext}`)).find((file) =>
      existsSync(file),
    );
    return { name: prefix + name, folder: mailDir, ...(previewFile ? { previewFile } : {}) };
  });
}

/**
 * The mails of the template folders `dirs`, the first folder winning for a name found in several
 * (the app's copy of a contrib mail overrides the shipped one, preview data included).
 */
export function listMailSources(dirs: readonly string[]): MailSource[] {
  const found = new Map<string, MailSource>();
  for (const dir of dirs) {
    const sources = [...mailsOf(join(dir, "mail"), "")];
    const contrib = join(dir, "contrib");
    if (existsSync(contrib)) {
      for (const module of readdirSync(contrib).sort())
        sources.push(...mailsOf(join(contrib, module, "mail"), `contrib/${module}/`));
    }
    for (const source of sources) {
      const known = found.get(source.name);
      if (!known) found.set(source.name, source);
      else if (!known.previewFile && source.previewFile)
        found.set(source.name, { ...known, previewFile: source.previewFile });
    }
  }
  return [...found.values()];
}

/** The preview data of a mail in `language` (empty when it has no preview file). */
export async function previewData(source: MailSource, language: string): Promise<Record<string, unknown>> {
  if (!source.previewFile) return {};
  if (source.previewFile.endsWith(".json"))
    return JSON.parse(readFileSync(source.previewFile, "utf8")) as Record<string, unknown>;
  // A query that changes with the file's time: an edited preview is read again without a restart.
  const url = `${pathToFileURL(source.previewFile).href}?t=${statSync(source.previewFile).mtimeMs}`;
  const module = (await import(url)) as { preview?: unknown };
  const preview = module.preview;
  const data = typeof preview === "function" ? await (preview as (language: string) => unknown)(language) : preview;
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
}
