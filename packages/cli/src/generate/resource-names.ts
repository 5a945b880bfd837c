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
}

function pluralize(word: string): string {
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
  };
}
