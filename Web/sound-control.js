// "Tap to turn on alert sounds": browsers keep a page silent until someone
// touches it, and nothing said so, so a tablet left on Today could miss an
// SOS's sound. The button shows on a paired device until sound is on (a tap
// anywhere turns it on too), then goes.
import { onSoundChange, soundIsOn, soundPossible, turnSoundOn } from './care/beep.js';

export function createSoundControl(app, { button }) {
  function show() {
    button.hidden = !soundPossible() || soundIsOn() || !app.me.current || app.unpaired;
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
      app.me.load().then(show, show);
      show();
    },
    show,
  };
}
