import { E_MAIL_SUBJECT_MISSING, E_MAIL_TEMPLATE_INVALID, E_MAIL_TEMPLATE_MISSING } from "../errors.js";

/**
 * Which part of a mail a template renders. Only the HTML part may escape values for HTML: the
 * subject and the plain-text body are read as text, where `&lt;` would arrive as written.
 */
export interface MailPart {
  /** True for the HTML body (`mail/<name>.html`); false for the subject and the text body. */
  readonly html: boolean;
}

/**
 * Renders one template of the app (Nunjucks in fw-a, Pug in fw-b) with a context, or returns
 * `undefined` when that template does not exist. Names are relative to the app's `templates/`
 * folder and keep the extensions of the convention (`mail/welcome.html`); a framework may map
 * them to its own files (fw-b: `mail/welcome.html` -> `mail/welcome.pug` when present).
 * `part.html` says whether the renderer may autoescape: it must not for the other parts.
 */
export type MailRenderer = (
  template: string,
  context: Readonly<Record<string, unknown>>,
  part: MailPart,
) => string | undefined | Promise<string | undefined>;

/** The part a mail template file renders: only `.html` files are HTML (see {@link MailPart}). */
export function mailPart(template: string): MailPart {
  return template.endsWith(".html") ? HTML_PART : TEXT_PART;
}

const HTML_PART: MailPart = Object.freeze({ html: true });
const TEXT_PART: MailPart = Object.freeze({ html: false });

/** The three template files of one mail, by the convention `templates/mail/<name>.<part>`. */
export interface MailTemplateFiles {
  /** `mail/<name>.subject.txt`: one line (whitespace is collapsed). Optional if `subject` is passed. */
  readonly subject: string;
  /** `mail/<name>.txt`: the plain-text body. */
  readonly text: string;
  /** `mail/<name>.html`: the HTML body. At least one of text and HTML must exist. */
  readonly html: string;
}

/** A mail's rendered parts. */
export interface RenderedMail {
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
}

const NAME = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

/** The template files a mail named `name` is made of. */
export function mailTemplateFiles(name: string): MailTemplateFiles {
  if (typeof name !== "string" || !NAME.test(name)) throw new E_MAIL_TEMPLATE_INVALID(String(name));
  return { subject: `mail/${name}.subject.txt`, text: `mail/${name}.txt`, html: `mail/${name}.html` };
}

/**
 * Renders the subject, text and HTML parts of a mail. A `subject` given by the caller wins over
 * the subject template; a missing text or HTML part is fine, both missing is an error.
 */
export async function renderMail(
  render: MailRenderer,
  name: string,
  context: Readonly<Record<string, unknown>>,
  subject?: string,
): Promise<RenderedMail> {
  const files = mailTemplateFiles(name);
  const [subjectText, text, html] = await Promise.all([
    subject === undefined ? render(files.subject, context, mailPart(files.subject)) : Promise.resolve(subject),
    render(files.text, context, mailPart(files.text)),
    render(files.html, context, mailPart(files.html)),
  ]);
  if (text === undefined && html === undefined) {
    throw new E_MAIL_TEMPLATE_MISSING(name, `templates/${files.text} and templates/${files.html}`);
  }
  // A subject is one header line: newlines from a template would be folded into it anyway.
  const line = (subjectText ?? "").replace(/\s+/g, " ").trim();
  if (line === "") throw new E_MAIL_SUBJECT_MISSING(name, `templates/${files.subject}`);
  const rendered: { subject: string; text?: string; html?: string } = { subject: line };
  if (text !== undefined) rendered.text = text;
  if (html !== undefined) rendered.html = html;
  return rendered;
}
