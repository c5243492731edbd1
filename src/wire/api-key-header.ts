/**
 * The specification's name for the header that carries an API key. Servers in the
 * wild use others (`OSDI-API-Token`), which clients and the reference server take as
 * an option; this is the default of both.
 */
export const DEFAULT_API_KEY_HEADER = 'STD-API-Token';
