/** An object that is not null and not an array (class instances included): the shape checks of user input. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether `value` is an array of readers: objects with a `name` and a `read` function. */
export const isReaderList = (value: unknown): boolean => Array.isArray(value) && value.every((reader) => isRecord(reader) && typeof reader.name === 'string' && typeof reader.read === 'function')

/** The rule a reader list breaks, as `createClient` and `defineAdapter` word it. */
export const READER_LIST_RULE = 'must be an array of readers: objects with a "name" and a "read(text, context)" function.'
