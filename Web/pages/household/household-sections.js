// The Household page's sections, each a <details> a person opens and
// closes: native, so Enter or Space on its heading toggles it as on any
// button, a screen reader hears it expanded or collapsed, and the
// browser's find-in-page opens the section it finds words in. Its heading
// and one line of what is inside stay in view while closed, so a phone
// shows the whole page at a glance instead of 5,000 pixels of it. Which
// sections a person sees and which start open is household/sections.js,
// the lines household/section-summaries.js; this file draws them, opens
// the one a link names (#/household/devices) and Devices when one waits
// for the admin's approval, and keeps on this device which sections a
// person left open (a language switch, a reload, the next visit).
import { h } from '../../dom.js';
import { icon } from '../../icon.js';
import { readSaved, writeSaved } from '../../preferences.js';
import { sectionSummary } from '../../household/section-summaries.js';
import {
  HOUSEHOLD_SECTIONS, OPEN_SECTIONS_STORAGE_KEY, devicesAwaitingApproval, openAtStart, readOpenSections, sectionsShownTo,
  withSectionOpen,
} from '../../household/sections.js';
import { deviceStorage } from '../../device-storage.js';


/**
 * `contents` is each section's body by key; `remembered` outlives the
 * page's renders; `linked` the key a link named, opened once shown;
 * `extra()` what the lines need besides the page's data ({ codeWaiting }).
 * Returns { element, show(data) }: `element` holds the sections this
 * person sees, `show` places them for `data.me` and writes their lines.
 */
export function createHouseholdSections(app, remembered, { contents, linked = null, extra = () => ({}) }) {
  const { t } = app;
  const storage = deviceStorage();
  remembered.openSections ??= readOpenSections(readSaved(storage, OPEN_SECTIONS_STORAGE_KEY));
  let data = null;
  const sections = new Map(HOUSEHOLD_SECTIONS.map((section) => [section.key, drawSection(t, section, contents[section.key], {
    open: openAtStart(section.key, remembered.openSections),
    toggled(open) {
      remembered.openSections = withSectionOpen(remembered.openSections, section.key, open);
      writeSaved(storage, OPEN_SECTIONS_STORAGE_KEY, JSON.stringify(remembered.openSections));
      // Closed, its line says what is inside now (a code made meanwhile).
      if (!open) writeSummary(section.key);
    },
  })]));
  const element = h('div', { class: 'household-sections' });
  let waitingBefore = 0;
  let link = linked;

  function writeSummary(key) {
    const line = sectionSummary(key, t, app.language, data, extra());
    const { summary } = sections.get(key);
    if (summary.textContent !== line) summary.textContent = line;
  }

  function show(next) {
    data = next;
    const keys = sectionsShownTo(data?.me);
    place(element, keys.map((key) => sections.get(key).element));
    if (!data) return;
    for (const key of keys) writeSummary(key);
    // A device waiting for the admin's approval can do nothing until then.
    const waiting = devicesAwaitingApproval(data.me, data.devices);
    if (waiting > waitingBefore) sections.get('devices').openByPage();
    waitingBefore = waiting;
    if (link && data.me) {
      const linkedSection = keys.includes(link) ? sections.get(link) : null;
      link = null;
      linkedSection?.openByPage();
      // After the page's own heading takes the keyboard on a new page (app.js).
      if (linkedSection) queueMicrotask(() => linkedSection.heading.focus());
    }
  }

  show(null);
  return { element, show };
}

/**
 * Puts `wanted` in `container` in that order, moving only what is missing
 * or out of place: a section that stays keeps the keyboard where it was.
 */
function place(container, wanted) {
  for (const child of [...container.children]) if (!wanted.includes(child)) child.remove();
  let before = container.firstElementChild;
  for (const element of wanted) {
    if (element === before) {
      before = before.nextElementSibling;
    } else {
      container.insertBefore(element, before);
    }
  }
}

/**
 * One section: its heading and line in the <summary>, the body below.
 * `toggled(open)` hears only the person's own opening and closing, not
 * the page's (a link, a device waiting), which is not theirs to remember.
 */
/** Each section's picture beside its heading (never instead of it). */
const SECTION_ICONS = Object.freeze({
  people: 'people-fill', archived: 'archive', 'care-links': 'person-hearts', devices: 'tablet', 'alert-apps': 'bell',
  away: 'chat-text', 'add-device': 'qr-code', reminders: 'alarm', details: 'house-heart', language: 'translate', audit: 'clock-history',
});

function drawSection(t, section, content, { open, toggled }) {
  const headingId = `${section.id}-heading`;
  const heading = h('h2', { id: headingId, class: 'household-section-heading', tabindex: '-1' }, t(section.heading));
  const summary = h('span', { id: `${section.id}-summary`, class: 'household-section-summary' });
  const details = h('details', { class: 'household-fold', 'data-section': section.key, open: open || null },
    h('summary', { class: 'household-fold-summary' }, icon(SECTION_ICONS[section.key] ?? 'house-heart', 'section-icon'), heading, summary),
    h('div', { class: 'household-fold-body' }, content));
  const element = h('section', { id: section.id, class: 'household-section', 'aria-labelledby': headingId }, details);
  // The page's own opening fires "toggle" too, later: told apart by what it set.
  let openedByPage = false;
  details.addEventListener('toggle', () => {
    if (openedByPage && details.open) {
      openedByPage = false;
      return;
    }
    openedByPage = false;
    toggled(details.open);
  });
  return {
    element, heading, summary,
    openByPage() {
      if (details.open) return;
      openedByPage = true;
      details.open = true;
    },
  };
}
