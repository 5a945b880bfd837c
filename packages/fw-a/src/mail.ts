import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AppConfig } from "@fwkit/koa-host";
import type { MailRenderer } from "@fwkit/services";
import { createTemplateEnvironment } from "./templates.js";

/**
 * fw-a's mail renderer for the services mailer: `templates/mail/<name>.subject.txt`, `.txt` and
 * `.html` rendered with Nunjucks and the app config as `config`. Only the HTML part autoescapes
 * (the mailer says which part it asks for): a subject or text body is text, not HTML.
 */
export function nunjucksMailRenderer(config: AppConfig): MailRenderer {
  const dir = join(config.root, "templates");
  const development = config.env === "development";
  const html = createTemplateEnvironment({ dir, development });
  const text = createTemplateEnvironment({ dir, development, autoescape: false });
  return (template, context, part) =>
    existsSync(join(dir, template)) ? (part.html ? html : text).render(template, { config, ...context }) : undefined;
}
