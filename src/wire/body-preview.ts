/**
 * How many characters of an unexpected response body an error carries (`bodyText`):
 * enough to see what came (an HTML error page, a proxy's text), short enough to log.
 */
export const BODY_PREVIEW_LENGTH = 500;
