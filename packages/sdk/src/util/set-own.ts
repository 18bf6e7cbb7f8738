/**
 * Sets an own, enumerable property even for `__proto__`, so a key from model text can never
 * replace an object's prototype (plain assignment to `__proto__` would).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
  else target[key] = value
}
