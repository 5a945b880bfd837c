import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AppConfig } from "@fwkit/koa-host";
import type { MailRenderer } from "@fwkit/services";
import type { Environment } from "nunjucks";
import { createTemplateEnvironment } from "./templates.js";

/**
 * fw-a's mail renderer for the services mailer: `templates/mail/<name>.subject.txt`, `.txt` and
 * `.html` rendered with Nunjucks and the app config as `config`. Only the HTML part autoescapes
 * (the mailer says which part it asks for): a subject or text body is text, not HTML.
 */
export function nunjucksMailRenderer(config: AppConfig): MailRenderer {
  const dir = join(config.root, "templates");
  const development = config.env === "development";
  // Made (and Nunjucks loaded) with the first mail rendered, not at start-up.
  let html: Environment | undefined;
  let text: Environment | undefined;
  return (template, context, part) => {
    if (!existsSync(join(dir, template))) return undefined;
    const env = part.html
      ? (html ??= createTemplateEnvironment({ dir, development }))
      : (text ??= createTemplateEnvironment({ dir, development, autoescape: false }));
    return env.render(template, { config, ...context });
  };
}
