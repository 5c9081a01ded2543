// "Tap to turn on alert sounds": browsers keep a page silent until someone
// touches it, and nothing said so, so a tablet left on Today could miss an
// SOS's sound. The button shows on a paired device until sound is on (a tap
// anywhere turns it on too), then goes.
//
// A tablet kept for the household (a kiosk: Chromium started with
// --autoplay-policy=no-user-gesture-required, or an Android kiosk app set to
// play sound without a tap) lets a page make sound from the start: so sound
// is tried as the page opens, and this device remembers that it once had
// sound on (`hearth.soundAllowed`), to ask to turn it on *again* rather than
// as if it never had.
import { onSoundChange, soundIsOn, soundPossible, turnSoundOn } from './care/beep.js';
import { readSaved, writeSaved } from './preferences.js';

export const SOUND_ALLOWED_KEY = 'hearth.soundAllowed';

export function createSoundControl(app, { button, storage = null }) {
  // On a phone it lies over the bottom of the screen: pages keep its height free (style.css).
  if (globalThis.ResizeObserver) new ResizeObserver(() => {
    document.documentElement.style.setProperty('--sound-button-height', `${button.hidden ? 0 : button.offsetHeight}px`);
  }).observe(button);
  function show() {
    if (soundIsOn()) writeSaved(storage, SOUND_ALLOWED_KEY, 'true');
    button.hidden = !soundPossible() || soundIsOn() || !app.me.current || app.unpaired;
    const again = readSaved(storage, SOUND_ALLOWED_KEY) === 'true';
    // The shell translates the button again by this key when the language changes.
    button.setAttribute('data-i18n', again ? 'shell.soundOnAgain' : 'shell.soundOn');
    button.textContent = app.t(button.getAttribute('data-i18n'));
  }
  button.addEventListener('click', async () => {
    await turnSoundOn();
    show();
    // The button is gone: the keyboard goes on to the page.
    if (button.hidden) document.getElementById('main')?.focus();
  });
  onSoundChange(show);
  return {
    start() {
      // Without a tap this works only where the browser allows it (a kiosk);
      // elsewhere sound stays off and the button says so.
      turnSoundOn().then(show, show);
      app.me.load().then(show, show);
      show();
    },
    show,
  };
}
