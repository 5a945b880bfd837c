import type { Attributes, IOptions } from "sanitize-html";

/**
 * The sanitiser settings of untrusted Markdown: the tags Markdown itself produces (GitHub-flavoured:
 * tables, strikethrough, task lists), a few attributes each, and links and images only to http,
 * https, mailto or relative URLs. Anything else is dropped, so a vector the allow-list never heard
 * of is removed rather than let through (fail closed).
 */
export const MARKDOWN_ALLOW_LIST: IOptions = Object.freeze({
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "pre",
    "code",
    "em",
    "strong",
    "del",
    "s",
    "sub",
    "sup",
    "a",
    "img",
    "ul",
    "ol",
    "li",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "input",
  ],
  allowedAttributes: {
    a: ["href", "title"],
    img: ["src", "alt", "title"],
    ol: ["start"],
    th: ["align"],
    td: ["align"],
    input: ["type", "checked", "disabled"],
  },
  // Only the language class marked writes on fenced code.
  allowedClasses: { code: ["language-*"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: true,
  disallowedTagsMode: "discard",
  // A task-list box is the only input Markdown makes: always a disabled checkbox, whatever was written.
  transformTags: {
    input: (_tagName: string, attribs: Attributes) => ({
      tagName: "input",
      attribs: { type: "checkbox", disabled: "", ...("checked" in attribs ? { checked: "" } : {}) },
    }),
  },
});
