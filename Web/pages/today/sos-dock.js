// SOS on every page of a senior's device: the slider (sos-control.js) in a
// bar fixed to the bottom of the screen, in red that stands out in every
// theme, above games and pages alike. A modal dialog makes everything
// outside it inert, so while one is open the bar is lent to it
// (dialog.js's keepInEveryDialog) and comes back when it closes: help is
// never one "Cancel" away. Its line about her call (pages/today/sos-status.js) is
// inside the bar, so the height the page keeps free under it counts it too.
import { h } from '../../dom.js';
import { keepInEveryDialog } from '../../dialog.js';
import { createSOSControl } from './sos-control.js';
import { createSOSStatus } from './sos-status.js';

export function createSOSDock(app, { body = document.body } = {}) {
  const dock = h('aside', { id: 'sos-dock', class: 'sos-dock', hidden: true });
  body.append(dock);
  // Pages keep their last line above the bar, whatever its height in this text size.
  if (globalThis.ResizeObserver) new ResizeObserver(() => {
    document.documentElement.style.setProperty('--sos-dock-height', `${dock.offsetHeight}px`);
  }).observe(dock);
  let control = null;
  let status = null; // what became of her call, kept across a change of language
  let shownFor = null;

  /** Shows the bar for a senior (drawn again in a new language), hides it for anyone else. */
  function show() {
    const me = app.me.current;
    const senior = me?.role === 'senior' && !app.unpaired;
    body.classList.toggle('has-sos-dock', senior);
    dock.hidden = !senior;
    keepInEveryDialog(senior ? dock : null);
    if (!senior) {
      control?.stop();
      status?.stop();
      control = null;
      status = null;
      shownFor = null;
      dock.replaceChildren();
      return;
    }
    if (control && shownFor === app.language) return;
    control?.stop();
    status ??= createSOSStatus(app);
    status.draw();
    control = createSOSControl(app, { status });
    shownFor = app.language;
    dock.setAttribute('aria-label', app.t('sos.heading'));
    dock.replaceChildren(control.element);
  }

  return { show };
}
