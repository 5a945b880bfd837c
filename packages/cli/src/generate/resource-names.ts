/**
 * The names a resource generator derives from one singular name (`Note`, `blog_post`): the model
 * (`Note`), its row type (`NoteRow`), the table (`notes`), the view module (`views/notes.ts`), the
 * view class (`Notes`) and the factory (`Notes`), so both frameworks name a resource alike.
 */
import { E_RESOURCE_NAME } from "../errors.js";

/** The names of one resource. */
export interface ResourceNames {
  /** The model and the singular: `Note`, `BlogPost`. */
  readonly model: string;
  /** The row interface: `NoteRow`. */
  readonly row: string;
  /** The table: `notes`, `blog_posts`. */
  readonly table: string;
  /** The view module (file name under views/): `notes`, `blog_posts`. */
  readonly module: string;
  /** The view class and the factory: `Notes`, `BlogPosts`. */
  readonly plural: string;
  /** Singular words for messages: `note`, `blog post`. */
  readonly human: string;
  /** Plural words for titles: `notes`, `blog posts`. */
  readonly humanPlural: string;
  /** The declared input schema: `NoteInput`. */
  readonly input: string;
  /** The declared schema of a JSON PATCH (every field optional): `NotePatch`. */
  readonly patch: string;
  /** One row's key in templates and JSON answers: `note`, `blog_post`. */
  readonly item: string;
}

/**
 * Plurals English does not make with -s: `person` -> `people`. (Words whose plural is the same, such
 * as `sheep`, take -s: the model and the factory need two names.)
 */
const IRREGULAR: Readonly<Record<string, string>> = {
  person: "people",
  man: "men",
  woman: "women",
  child: "children",
  mouse: "mice",
  goose: "geese",
  foot: "feet",
  tooth: "teeth",
  ox: "oxen",
  leaf: "leaves",
  life: "lives",
  knife: "knives",
  wife: "wives",
  half: "halves",
  shelf: "shelves",
  wolf: "wolves",
  criterion: "criteria",
  analysis: "analyses",
  crisis: "crises",
  thesis: "theses",
  quiz: "quizzes",
};

/**
 * Names a row's key cannot take: what templates and layouts use already (a row would hide it) and
 * JavaScript's reserved words (fw-b's view names a local variable after the key).
 */
const TAKEN_KEYS = new Set([
  ..."old errors flash flash_messages message row title user request locale csrf nav".split(" "),
  ..."break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await arguments eval".split(
    " ",
  ),
]);

function pluralize(word: string): string {
  if (Object.hasOwn(IRREGULAR, word)) return IRREGULAR[word]!;
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/** The names of the resource `name` (singular: `Note`, `note`, `blog_post`, `BlogPost`). */
export function resourceNames(name: string): ResourceNames {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,50}$/.test(name)) throw new E_RESOURCE_NAME(name);
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .split("_")
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const pascal = (parts: readonly string[]) =>
    parts.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
  const pluralWords = [...words.slice(0, -1), pluralize(words[words.length - 1]!)];
  const model = pascal(words);
  return {
    model,
    row: `${model}Row`,
    table: pluralWords.join("_"),
    module: pluralWords.join("_"),
    plural: pascal(pluralWords),
    human: words.join(" "),
    humanPlural: pluralWords.join(" "),
    input: `${model}Input`,
    patch: `${model}Patch`,
    item: TAKEN_KEYS.has(words.join("_")) ? `${words.join("_")}_item` : words.join("_"),
  };
}
