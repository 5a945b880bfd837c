/** The result table both frameworks answer view results by (see `./table.ts`). */
export { shapeOf, type ResultShape } from "./shape.js";
export { prepareResult, sendXml, type ResultTableOptions, type TemplateRenderer } from "./table.js";
