/**
 * The JSON object of storage: what a record's document and an event's payload are. In
 * a file of its own, below every sub-store, so that each can name it without importing
 * the others or the storage contract that gathers them.
 */

/** A JSON object as stored and returned. */
export type JsonObject = { [key: string]: unknown };
