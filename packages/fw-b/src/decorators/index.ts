/**
 * @module fw-b/decorators
 * fw-b's decorators: `route`, `renderJson`, `renderXml`, `renderHtml` and `navTitle`, all TC39
 * standard decorators usable on a class or a method.
 */
export { navTitle, type NavEntry, type NavTitleOptions } from "./nav-title.js";
export { renderHtml, renderJson, renderXml, type BareViewDecorator } from "./response.js";
export { route } from "./route.js";
