// Which rules a body is validated by: a domain fact the preset chooses
// (`ServingPreset.vocabulary`), so it is declared here, below the presets.

/** How a preset's server validates written members and values. */
export type Vocabulary =
  /** The specification's formats, closed enums and members only (the plain server). */
  | 'strict'
  /**
   * The specification's rules, plus what real servers document beside it: their members
   * (`tag_list`, a phone's `status`, message `targets`, `remove_tags`), their values (email
   * statuses such as `previous bounce`) and their date-time spellings
   * (`2026-09-01 18:00:00`), stored as ISO 8601.
   */
  | 'extended';
