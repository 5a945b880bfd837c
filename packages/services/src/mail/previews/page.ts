/**
 * The HTML of the mail preview pages: the index (mails of the app and of contrib, the last mails
 * the log: catcher caught) and one mail rendered in each language, HTML and text side by side.
 * Mail HTML is shown in sandboxed iframes (srcdoc): its styles and markup never mix with the page.
 */
import { escapeHtml } from "@fwkit/koa-host/plugin";
import type { CaughtMail } from "../transports/log.js";
import type { MailSource } from "./sources.js";

/** One language's rendering of a mail, or why it could not be rendered. */
export interface RenderedPreview {
  readonly language: string;
  readonly subject?: string;
  readonly html?: string;
  readonly text?: string;
  readonly error?: string;
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:80rem;padding:0 1rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
.parts{display:grid;grid-template-columns:1fr 1fr;gap:1rem}iframe{width:100%;height:24rem;border:1px solid #ccc;background:#fff}
pre{white-space:pre-wrap;border:1px solid #ccc;padding:.5rem;margin:0;height:23rem;overflow:auto;background:#fafafa}
.error{color:#a00}.muted{color:#666}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** A sandboxed frame showing mail HTML: no scripts; a link opens in a new tab. */
function frame(html: string, label: string): string {
  return `<iframe title="${escapeHtml(label)}" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(`<base target="_blank">${html}`)}"></iframe>`;
}

function caughtList(base: string, caught: readonly CaughtMail[] | undefined): string {
  if (caught === undefined)
    return `<p class="muted">The mail transport is not <code>log:</code>: sent mails are not kept here.</p>`;
  if (caught.length === 0)
    return `<p class="muted">No mail caught yet. Mails the app sends with <code>mailUrl: "log:"</code> appear here.</p>`;
  const rows = caught.map((mail, index) => {
    const links = mail.links.map((link) => `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`).join("<br>");
    return `<tr><td>${escapeHtml(mail.at.toISOString().replace("T", " ").slice(0, 19))}</td><td>${escapeHtml(mail.to.join(", "))}</td><td><a href="${base}/caught/${index}">${escapeHtml(mail.subject)}</a></td><td class="links">${links}</td></tr>`;
  });
  return `<table><thead><tr><th>Caught (UTC)</th><th>To</th><th>Subject</th><th>Links</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The index page: the mail templates and the caught mails (`caught` undefined: the transport is not log:). */
export function indexPage(
  base: string,
  sources: readonly MailSource[],
  caught: readonly CaughtMail[] | undefined,
): string {
  const mails =
    sources.length === 0
      ? `<p class="muted">No mail templates: add templates/mail/&lt;name&gt;.subject.txt with .txt and .html parts.</p>`
      : `<table><thead><tr><th>Mail</th><th>Preview data</th></tr></thead><tbody>${sources
          .map(
            (source) =>
              `<tr><td><a href="${base}/preview/${source.name.split("/").map(encodeURIComponent).join("/")}">${escapeHtml(source.name)}</a></td><td>${source.previewFile ? escapeHtml(source.previewFile.split(/[\\/]/).pop()!) : '<span class="muted">none: add mail/&lt;name&gt;.preview.ts</span>'}</td></tr>`,
          )
          .join("")}</tbody></table>`;
  return layout(
    "Mail previews",
    `<h1>Mail previews</h1><h2>Templates</h2>${mails}<h2>Last mails caught</h2>${caughtList(base, caught)}`,
  );
}

/** One mail in every language: subject, then the HTML and text parts side by side. */
export function previewPage(base: string, source: MailSource, previews: readonly RenderedPreview[]): string {
  const sections = previews.map((preview) => {
    const heading = `<h2 lang="${escapeHtml(preview.language)}">${escapeHtml(preview.language)}: ${escapeHtml(preview.subject ?? "")}</h2>`;
    if (preview.error !== undefined) return `${heading}<p class="error">${escapeHtml(preview.error)}</p>`;
    const html =
      preview.html === undefined
        ? `<p class="muted">No HTML part.</p>`
        : frame(preview.html, `${preview.language} HTML`);
    const text =
      preview.text === undefined ? `<p class="muted">No text part.</p>` : `<pre>${escapeHtml(preview.text)}</pre>`;
    return `<section class="preview" data-language="${escapeHtml(preview.language)}">${heading}<div class="parts"><div><h3>HTML</h3>${html}</div><div><h3>Text</h3>${text}</div></div></section>`;
  });
  const data = source.previewFile
    ? `Preview data: ${escapeHtml(source.previewFile)}`
    : "No preview data: add mail/&lt;name&gt;.preview.ts next to the templates.";
  return layout(
    `Mail ${source.name}`,
    `<p><a href="${base}">All mails</a></p><h1>${escapeHtml(source.name)}</h1><p class="muted">${data}</p>${sections.join("")}`,
  );
}

/** One caught mail: headers, links, HTML and text. */
export function caughtPage(base: string, mail: CaughtMail): string {
  const links = mail.links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join("");
  const html = mail.html === undefined ? `<p class="muted">No HTML part.</p>` : frame(mail.html, "HTML part");
  const text = mail.text === undefined ? `<p class="muted">No text part.</p>` : `<pre>${escapeHtml(mail.text)}</pre>`;
  return layout(
    mail.subject,
    `<p><a href="${base}">All mails</a></p><h1>${escapeHtml(mail.subject)}</h1><table><tr><th>From</th><td>${escapeHtml(mail.from)}</td></tr><tr><th>To</th><td>${escapeHtml(mail.to.join(", "))}</td></tr><tr><th>Message-ID</th><td>${escapeHtml(mail.messageId)}</td></tr></table>` +
      `<h2>Links</h2><ul class="links">${links || "<li class=muted>none</li>"}</ul><div class="parts"><div><h3>HTML</h3>${html}</div><div><h3>Text</h3>${text}</div></div>`,
  );
}
