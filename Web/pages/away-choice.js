// "Away from home" on Settings, for a caregiver or an admin: her own choice
// to be texted when she is not at home (GET/PUT /people/{id}/away). It is
// offered only when the hub sends texts (`textsPossible`: a modem run by
// gammu-smsd), so the page never promises a text that cannot go, and it
// says plainly what a text needs (her phone number) and what comes by it:
// an SOS at once, a medicine not taken if nobody at home answered, and how
// to answer by reply. Applies the moment it is ticked, like the rest of
// Settings.
import { getJSON, problemMessage, sendJSON } from '../api.js';
import { h, replaceKeepingFocus } from '../dom.js';
import { pageHref } from '../router.js';
import { createAnnouncer } from './page-tools.js';

/** The section, filled in when the hub has answered; null for a senior (her caregivers are the ones texted). */
export function awayChoiceSection(app) {
  const { t } = app;
  const me = app.me.current;
  if (!me?.personId || me.role === 'senior') return null;
  const body = h('div', { class: 'away-choice-body' }, h('p', { class: 'loading' }, t('settings.away.loading')));
  const { element: announcer, announce } = createAnnouncer('away-choice-announcer');
  const section = h('section', { id: 'settings-away', class: 'settings-link', 'aria-labelledby': 'settings-away-heading' },
    h('h2', { id: 'settings-away-heading' }, t('settings.away.heading')), announcer, body);
  const path = `/people/${encodeURIComponent(me.personId)}/away`;
  const draw = (...content) => replaceKeepingFocus(body, ...content);

  function drawChoice(away) {
    if (!away.textsPossible) {
      draw(h('p', { id: 'away-no-modem' }, t('settings.away.noModem')));
      return;
    }
    const phone = app.me.phoneOf(me.personId);
    const box = h('input', {
      type: 'checkbox', id: 'away-sms', checked: away.sms === true,
      // Without a number there is nowhere to text; one already chosen can still be turned off.
      disabled: !phone && away.sms !== true, 'aria-describedby': 'away-sms-hint away-sms-what',
      onchange: async () => {
        box.disabled = true;
        try {
          const saved = await sendJSON('PUT', path, { sms: box.checked, push: away.push === true }, { t });
          announce(t(saved.sms ? 'settings.away.on' : 'settings.away.off'));
          drawChoice(saved);
        } catch (problem) {
          announce(t('settings.away.failed', { problem: problemMessage(problem) }));
          drawChoice(away);
        }
      },
    });
    draw(
      h('label', { class: 'choice away-choice', for: 'away-sms' }, box, h('span', {}, t('settings.away.sms'))),
      h('p', { id: 'away-sms-hint', class: 'hint' },
        phone ? t('settings.away.toNumber', { phone }) : t('settings.away.noPhone')),
      phone ? null : h('p', {}, h('a', { href: pageHref('household'), id: 'away-phone-link', class: 'button-link secondary' },
        t('settings.away.addPhone'))),
      h('p', { id: 'away-sms-what', class: 'hint' }, t('settings.away.what')),
    );
  }

  getJSON(path, { t }).then(drawChoice, (problem) =>
    draw(h('p', { class: 'error', id: 'away-failed' }, t('settings.away.failed', { problem: problemMessage(problem) }))));
  return section;
}
