// The SOS control's rules, without the page: it is a slider that sends only
// when moved all the way to the end, so a tap, a brush of a sleeve or a
// tablet lying on the sofa cannot call for help. By finger or mouse the
// thumb must be dragged (a tap on the track does nothing); by keyboard the
// focused slider moves a quarter with each arrow key, End goes to the end.
// Pure, for the Node tests.

export const SOS_MIN = 0;
export const SOS_MAX = 100;
/** Arrow keys move this much: four presses of → send. */
export const SOS_KEY_STEP = 25;
/** A drag released this close to the end counts as the end (fingers are not exact). */
export const SOS_DRAG_SEND_AT = 95;

const clamp = (value) => Math.min(SOS_MAX, Math.max(SOS_MIN, value));

/** The value after a key press, or null for a key the slider leaves alone. */
export function valueAfterKey(key, value) {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(value + SOS_KEY_STEP);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(value - SOS_KEY_STEP);
    case 'PageUp':
      return clamp(value + 2 * SOS_KEY_STEP);
    case 'PageDown':
      return clamp(value - 2 * SOS_KEY_STEP);
    case 'Home':
      return SOS_MIN;
    case 'End':
      return SOS_MAX;
    default:
      return null;
  }
}

/**
 * The value while dragging: where it was when grabbed plus how far the
 * pointer moved, as a share of the distance the thumb can travel.
 */
export function valueFromDrag(startValue, movedPx, travelPx) {
  if (!(travelPx > 0)) return clamp(startValue);
  return clamp(startValue + (movedPx / travelPx) * SOS_MAX);
}

/** Whether letting go (pointer) or a key press at `value` sends the SOS. */
export function sends(value, { dragging = false } = {}) {
  return dragging ? value >= SOS_DRAG_SEND_AT : value >= SOS_MAX;
}

/** Which words aria-valuetext uses: "notSent" at the start, "sending" at the end, else "partWay". */
export function valueState(value) {
  if (value <= SOS_MIN) return 'notSent';
  if (value >= SOS_MAX) return 'sending';
  return 'partWay';
}
