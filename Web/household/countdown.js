// How long a pairing code still works, for the code shown on the Household
// page: "9:05" on screen, updated every second, and in words ("4 minutes",
// "4 minuty") for an announcement to screen readers at a few moments, as
// one every second would drown everything else. Pure, for the Node tests.
import { countText } from '../care/words.js';
import { hubNow } from '../hub-clock.js';
import { languageOf } from '../i18n.js';

/** Whole seconds from `now` until `expiresAt` (rounded up, so "0:00" means gone); 0 after it or for a bad date. */
export function secondsLeft(expiresAt, now = hubNow()) {
  const end = Date.parse(expiresAt ?? '');
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - now) / 1000));
}

const two = (n) => String(n).padStart(2, '0');

/** 545 → "9:05", 59 → "0:59", 3725 → "1:02:05". */
export function clockCountdown(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

const MINUTES = {
  en: { one: 'minute', other: 'minutes' },
  pl: { one: 'minuta', few: 'minuty', many: 'minut', other: 'minuty' },
};
const SECONDS = {
  en: { one: 'second', other: 'seconds' },
  pl: { one: 'sekunda', few: 'sekundy', many: 'sekund', other: 'sekundy' },
};

/** The time left in words: whole minutes (rounded up) from a minute on, else seconds: "4 minutes", "1 minuta", "30 sekund". */
export function spokenCountdown(language, seconds) {
  const lang = languageOf(language);
  const total = Math.max(0, Math.ceil(seconds));
  if (total >= 60) return countText(lang, Math.ceil(total / 60), MINUTES[lang]);
  return countText(lang, total, SECONDS[lang]);
}

/** Moments (seconds left) at which a screen reader is told how long the code still works. */
export const ANNOUNCED_AT = Object.freeze([300, 60]);

/**
 * Whether going from `before` to `after` seconds left passes one of those
 * moments. Time standing still or going back (a redraw) says nothing.
 */
export function worthAnnouncing(before, after) {
  return ANNOUNCED_AT.some((mark) => before > mark && after <= mark && after > 0);
}
