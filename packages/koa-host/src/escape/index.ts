/**
 * HTML and XML escaping and writing, once for every package: the error pages, fw-b's `@renderXml`,
 * data's 422 XML body, pagination links and the Markdown renderer all use these.
 */
export { escapeHtml } from "./html.js";
export { escapeXml, isXmlName, toXml } from "./xml.js";
