/**
 * Where an HTML error page is looked for, the same in every framework: the app's
 * `templates/error/<status>` page, else its `templates/error` page (then the framework's own pages,
 * if it has any, then the kit's built-in page).
 */
export function errorTemplateNames(status: number, extension = ""): string[] {
  return [`error/${status}${extension}`, `error${extension}`];
}
