// The household's settings on the Household page: how persistent dose
// reminders are (PUT /household/reminders), the household's name and
// time zone, and the hub's language (PATCH /household). Admins get forms;
// everyone else reads the values. A form keeps what is being typed when the
// values change elsewhere (the live stream), and takes the new values once
// it is saved or was not touched. This file says when each is drawn again;
// the forms are reminder-settings.js, household-details.js and hub-language.js.
import { h } from '../../dom.js';
import { drawHubLanguage } from './hub-language.js';
import { drawDetails } from './household-details.js';
import { drawReminders } from './reminder-settings.js';

/**
 * `state` outlives the page's renders. `onSaved(changes)` hands what the
 * hub answered ({ reminders } or { household }) back to the page.
 */
export function createHouseholdSettings(app, state, { announce, onSaved }) {
  state.reminders ??= { typed: null, errors: {}, saving: false, saved: false };
  state.details ??= { typed: null, errors: {}, saving: false, saved: false };
  state.language ??= { typed: null, errors: {}, saving: false, saved: false };
  const remindersElement = h('div', { class: 'household-settings' });
  const detailsElement = h('div', { class: 'household-settings' });
  const languageElement = h('div', { class: 'household-settings' });
  // What the forms draw from; `current` is what the page last had (or a form just saved).
  const settings = { app, state, announce, onSaved, remindersElement, detailsElement, languageElement, current: null };

  return {
    remindersElement,
    detailsElement,
    languageElement,
    /** The household, its reminders and who is asking, whenever the page has them anew. */
    update(next) {
      const before = settings.current;
      settings.current = next;
      // Values changed elsewhere replace those in a form nobody has touched.
      const touched = (form, saved) => form.typed !== null && JSON.stringify(form.typed) !== JSON.stringify(saved);
      if (!before || JSON.stringify([before.reminders, before.me]) !== JSON.stringify([next.reminders, next.me])) {
        const saved = before?.reminders ?? {};
        if (!touched(state.reminders, { graceMinutes: String(saved.graceMinutes ?? ''), repeatMinutes: String(saved.repeatMinutes ?? '') })) {
          state.reminders.typed = null;
        }
        drawReminders(settings);
      }
      if (!before || JSON.stringify([before.household, before.me]) !== JSON.stringify([next.household, next.me])) {
        const saved = before?.household ?? {};
        if (!touched(state.details, { name: saved.name ?? '', timeZone: saved.timeZone ?? '' })) state.details.typed = null;
        if (!touched(state.language, { language: saved.language ?? '' })) state.language.typed = null;
        drawDetails(settings);
        drawHubLanguage(settings);
      }
    },
  };
}
