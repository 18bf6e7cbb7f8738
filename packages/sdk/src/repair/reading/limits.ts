// The bounds every built-in reader keeps, so a flood of calls or nesting in model text costs bounded work.

/** Most calls or JSON candidates taken from one message; the rest of a flood is ignored. */
export const MAX_CALLS = 64

/** Deepest nesting the markup parsers build. */
export const MAX_MARKUP_DEPTH = 64

