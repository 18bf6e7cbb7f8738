// A leaf: coerce (a pipeline helper) and element-tree (a reader helper) both use it, and element-tree
// imports the value decoder, which imports coerce.

/**
 * The text an object read from elements was written as (`<note>a <b>b</b></note>` → `a <b>b</b>`): a
 * string field whose value came as elements is that text, exactly, not the object (see `coerce`).
 */
export const elementText = new WeakMap<object, string>()
