import { bareOrCalled, responseKindTag, type ViewDecorator } from "routing-kernel";

/** A decorator usable bare (`@renderJson`) or called (`@renderJson()`), on a class or a method. */
export type BareViewDecorator = ViewDecorator & (() => ViewDecorator);

/**
 * Answers the class's (or the method's) results as JSON. Errors of these views are JSON too:
 * `{"error": {"status": N, "message": "..."}}`.
 */
export const renderJson: BareViewDecorator = bareOrCalled(() => responseKindTag("renderJson", "json"), "renderJson");

/**
 * Answers the class's (or the method's) results as XML (`application/xml; charset=utf-8`, root
 * element `<response>`). Errors of these views are JSON, as for `@renderJson`.
 */
export const renderXml: BareViewDecorator = bareOrCalled(() => responseKindTag("renderXml", "xml"), "renderXml");

/**
 * Answers the class's (or the method's) results as HTML again, under a class marked with
 * `@renderJson` or `@renderXml`.
 */
export const renderHtml: BareViewDecorator = bareOrCalled(() => responseKindTag("renderHtml", "html"), "renderHtml");
