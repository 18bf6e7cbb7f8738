import type { Reader, ReaderPreview } from '../repair/reader'

/** Reads nothing: the preview of a client whose readers stream no previews. */
const NO_PREVIEW: ReaderPreview = { start: -1, push() {}, read: () => ({}) }

/** The preview factories of `readers`, each once (two readers may share one incremental reader). */
export function previewsOf(readers: readonly Reader[]): Array<(from: number) => ReaderPreview> {
  return [...new Set(readers.flatMap((reader) => (typeof reader.preview === 'function' ? [reader.preview] : [])))]
}

/**
 * One preview over several readers' incremental previews, all fed the same content: the first to
 * find a call's arguments (the earliest start) is the preview from then on. Before that its `name`
 * is the first name any of them read (`<function=NAME>` before a JSON body).
 */
export function combinePreviews(factories: ReadonlyArray<(from: number) => ReaderPreview>, from: number): ReaderPreview {
  if (factories.length === 0) return NO_PREVIEW
  if (factories.length === 1) return factories[0]!(from)
  const previews = factories.map((factory) => factory(from))
  let chosen: ReaderPreview | undefined
  const combined: ReaderPreview = {
    start: -1,
    push(piece) {
      if (chosen) chosen.push(piece)
      else {
        for (const preview of previews) preview.push(piece)
        for (const preview of previews) if (preview.start >= 0 && (!chosen || preview.start < chosen.start)) chosen = preview
      }
      const named = chosen ?? previews.find((preview) => preview.name !== undefined)
      combined.start = chosen ? chosen.start : -1
      combined.name = named?.name
    },
    read: () => (chosen ? chosen.read() : {}),
  }
  return combined
}
