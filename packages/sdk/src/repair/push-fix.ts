/** Fix codes recorded once: what every stage and reader that notes a repair calls. */

/** Adds a fix code once, keeping first-seen order. */
export function pushFix(fixes: string[], code: string): void {
  if (!fixes.includes(code)) fixes.push(code)
}
