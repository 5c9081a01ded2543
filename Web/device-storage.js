// This device's localStorage, or null: even reading it throws when the
// browser blocks storage (a private window, a kiosk's settings), and then
// what a page would remember lasts only while it is open.
export function deviceStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
