// Alert sounds, made with Web Audio (no sound files): a short beep for a new
// alert, and for an SOS a two-tone call that repeats until someone answers.
// Browsers let a page make sound only after someone has touched it, so the
// audio is switched on at the first tap or key press, or by the "Tap to turn
// on alert sounds" button (sound-control.js); before that an alert still
// shows and is announced, just silently.

let context = null;
const listeners = new Set();

function notify() {
  for (const fn of listeners) {
    try {
      fn(soundIsOn());
    } catch (error) {
      console.error('sound listener failed', error);
    }
  }
}

function audioContext() {
  if (context) return context;
  const AudioContextImpl = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!AudioContextImpl) return null;
  try {
    context = new AudioContextImpl();
    context.addEventListener?.('statechange', notify);
  } catch {
    context = null;
  }
  return context;
}

/** Whether this browser can make a sound at all. */
export function soundPossible() {
  return Boolean(globalThis.AudioContext ?? globalThis.webkitAudioContext);
}

/** Whether alerts are heard now (the browser has let the page make sound). */
export function soundIsOn() {
  return context?.state === 'running';
}

/** fn(on) whenever sound turns on or off; returns an unsubscribe function. */
export function onSoundChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Turns sound on; works from a tap or key press. Resolves whether it is on. */
export async function turnSoundOn() {
  const ctx = audioContext();
  if (!ctx) return false;
  try {
    await ctx.resume?.();
  } catch {
    // still suspended: the button stays
  }
  notify();
  return soundIsOn();
}

/** Call once: the first tap or key press anywhere turns sound on. */
export function enableSoundOnFirstTouch(target = globalThis.document) {
  const unlock = () => {
    turnSoundOn();
    target.removeEventListener('pointerdown', unlock, true);
    target.removeEventListener('keydown', unlock, true);
  };
  target.addEventListener('pointerdown', unlock, true);
  target.addEventListener('keydown', unlock, true);
}

function tones(list) {
  const ctx = context;
  if (!ctx || ctx.state !== 'running') return;
  try {
    for (const { at, frequency, length } of list) {
      const start = ctx.currentTime + at;
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.5, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + length - 0.02);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(start);
      oscillator.stop(start + length);
    }
  } catch {
    // no sound is better than a broken page
  }
}

/** Two short tones: a medicine due, a dose missed, running low. Silent if sound is not on yet. */
export function beep() {
  tones([0, 0.25].map((at) => ({ at, frequency: 880, length: 0.2 })));
}

/**
 * An SOS: high and low tones in turn for about two seconds, unlike any other
 * alert; the banner plays it again every few seconds until someone answers.
 */
export function sosCall() {
  const list = [];
  for (let i = 0; i < 8; i += 1) list.push({ at: i * 0.25, frequency: i % 2 === 0 ? 988 : 740, length: 0.22 });
  tones(list);
}
