// A short beep for a new alert, made with Web Audio (no sound files).
// Browsers let a page make sound only after someone has touched it, so the
// audio is switched on at the first tap or key press; before that an alert
// still shows and is announced, just silently.

let context = null;

function audioContext() {
  if (context) return context;
  const AudioContextImpl = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!AudioContextImpl) return null;
  try {
    context = new AudioContextImpl();
  } catch {
    context = null;
  }
  return context;
}

/** Call once: the first tap or key press anywhere turns sound on. */
export function enableSoundOnFirstTouch(target = globalThis.document) {
  const unlock = () => {
    const ctx = audioContext();
    ctx?.resume?.().catch(() => {});
    target.removeEventListener('pointerdown', unlock, true);
    target.removeEventListener('keydown', unlock, true);
  };
  target.addEventListener('pointerdown', unlock, true);
  target.addEventListener('keydown', unlock, true);
}

/** Two short tones (three, higher, when urgent: an SOS). Silent if sound is not on yet. */
export function beep({ urgent = false } = {}) {
  const ctx = context;
  if (!ctx || ctx.state !== 'running') return;
  try {
    const tones = urgent ? 3 : 2;
    const frequency = urgent ? 1046 : 880;
    for (let i = 0; i < tones; i += 1) {
      const start = ctx.currentTime + i * 0.25;
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.4, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.18);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(start);
      oscillator.stop(start + 0.2);
    }
  } catch {
    // no sound is better than a broken page
  }
}
