/**
 * A text that grows by small pieces and is read whole now and then (a stream's content, reasoning,
 * a call's arguments). `+=` would keep one rope node per piece alive until the end; here pieces
 * are joined into blocks as they come, so a long stream leaves few objects for the garbage
 * collector to move, and reading is a join.
 */
export interface TextBuffer {
  append(piece: string): void
  readonly length: number
  /** The whole text (joined once; appending again keeps it as the first block). */
  toString(): string
}

// Pieces joined into one block: large enough that blocks are few, small enough that joining is cheap.
const BLOCK_PIECES = 256

/** Creates an empty {@link TextBuffer}. */
export function createTextBuffer(): TextBuffer {
  let blocks: string[] = []
  let pieces: string[] = []
  let length = 0
  return {
    append(piece) {
      if (piece === '') return
      length += piece.length
      pieces.push(piece)
      if (pieces.length === BLOCK_PIECES) {
        blocks.push(pieces.join(''))
        pieces = []
      }
    },
    get length() {
      return length
    },
    toString() {
      if (pieces.length > 0) {
        blocks.push(pieces.join(''))
        pieces = []
      }
      if (blocks.length > 1) blocks = [blocks.join('')]
      return blocks[0] ?? ''
    },
  }
}
