export { Curies, curiesOf } from './curies.js';
export { HalDocument, Link } from './document.js';
export { type HalLink, isJsonObject, toLinkList } from './link.js';
export { expandTemplate, type TemplateVariables, templateVariableNames } from './template.js';
export { resolveHref, unfetchableReason, withQueryParameter } from './uri.js';
