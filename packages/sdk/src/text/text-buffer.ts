/**
 * A text that grows by small pieces and is read whole now and then (a stream's content, reasoning,
 * a call's arguments). `+=` per piece would keep one rope node per piece alive until the end; here
 * pieces are joined into blocks as they come and the blocks are chained, so a long stream leaves
 * few objects for the garbage collector to move, and reading copies nothing until the text itself
 * is read (the engine flattens the chain then, once).
 */
export interface TextBuffer {
  append(piece: string): void
  readonly length: number
  /** The whole text. */
  toString(): string
}

// Pieces joined into one block: large enough that blocks are few, small enough that joining is cheap.
const BLOCK_PIECES = 256

/** Creates an empty {@link TextBuffer}. */
export function createTextBuffer(): TextBuffer {
  let text = ''
  let pieces: string[] = []
  // `length` is a plain field, not a getter: an object literal with a getter is several times
  // slower to create, and one buffer is made per string a streamed call's arguments hold.
  const buffer = {
    length: 0,
    append(piece: string) {
      buffer.length += piece.length
      pieces.push(piece)
      if (pieces.length === BLOCK_PIECES) buffer.toString()
    },
    toString() {
      text += pieces.join('')
      pieces = []
      return text
    },
  }
  return buffer
}
