// "Away from home" on Settings, for a caregiver or an admin: her own choice
// to be texted, or pushed through the Internet, when she is not at home
// (GET/PUT /people/{id}/away). Each is offered only when the hub can send
// it (`textsPossible`: a modem run by gammu-smsd; `pushPossible`: an
// Internet ntfy server, pages/household/away-push.js), so the page never promises
// what cannot go, and it says plainly what a text needs (her phone number)
// and what comes by it: an SOS at once, a medicine not taken if nobody at
// home answered, and how to answer by reply. Applies the moment it is
// ticked, like the rest of Settings.
import { getJSON, problemMessage, sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h, replaceKeepingFocus } from '../../dom.js';
import { pageHref } from '../../router.js';
import { createAnnouncer } from '../page-tools.js';
import { awayPush } from './away-push.js';

/** What to say once a change was kept: the one thing that changed. */
function savedKey(before, after) {
  if (before.sms !== after.sms) return after.sms ? 'settings.away.on' : 'settings.away.off';
  if (before.push !== after.push) return after.push ? 'settings.away.push.on' : 'settings.away.push.off';
  return 'settings.away.push.renewed';
}

/** The section, filled in when the hub has answered; null for a senior (her caregivers are the ones texted). */
export function awayChoiceSection(app) {
  const { t } = app;
  const me = app.me.current;
  if (!me?.personId || me.role === 'senior') return null;
  const body = h('div', { class: 'away-choice-body' }, h('p', { class: 'loading' }, t('settings.away.loading')));
  const { element: announcer, announce } = createAnnouncer('away-choice-announcer');
  const section = h('section', { id: 'settings-away', class: 'settings-link', 'aria-labelledby': 'settings-away-heading' },
    h('h2', { id: 'settings-away-heading' }, t('settings.away.heading')), announcer, body);
  const path = paths.personAway(me.personId);
  const draw = (...content) => replaceKeepingFocus(body, ...content);

  /** Sends the choice with `changes`; `control` is kept from a second press meanwhile. */
  async function save(away, changes, control) {
    control.disabled = true;
    try {
      const saved = await sendJSON('PUT', path, { sms: away.sms === true, push: away.push === true, ...changes }, { t });
      announce(t(savedKey(away, saved)));
      drawChoice(saved);
    } catch (problem) {
      announce(t('settings.away.failed', { problem: problemMessage(problem) }));
      drawChoice(away);
    }
  }

  function drawChoice(away) {
    if (!away.textsPossible && !away.pushPossible) {
      draw(h('p', { id: 'away-no-modem' }, t('settings.away.noModem')));
      return;
    }
    draw(...(away.textsPossible ? texts(away) : [h('p', { id: 'away-no-modem' }, t('settings.away.noModemButPush'))]),
      ...(away.pushPossible ? awayPush(app, away, minutes, (changes, control) => save(away, changes, control)) : []));
  }

  function texts(away) {
    const phone = app.me.phoneOf(me.personId);
    const box = h('input', {
      type: 'checkbox', id: 'away-sms', checked: away.sms === true,
      // Without a number there is nowhere to text; one already chosen can still be turned off.
      disabled: !phone && away.sms !== true, 'aria-describedby': 'away-sms-hint away-sms-what',
      onchange: () => save(away, { sms: box.checked }, box),
    });
    return [
      h('label', { class: 'choice away-choice', for: 'away-sms' }, box, h('span', {}, t('settings.away.sms'))),
      h('p', { id: 'away-sms-hint', class: 'hint' },
        phone ? t('settings.away.toNumber', { phone }) : t('settings.away.noPhone')),
      phone ? null : h('p', {}, h('a', { href: pageHref('household'), id: 'away-phone-link', class: 'button-link secondary' },
        t('settings.away.addPhone'))),
      h('p', { id: 'away-sms-what', class: 'hint' }, t('settings.away.what', { minutes })),
    ];
  }

  // The household's delay, said in the sentences; the usual 15 minutes until it is read.
  let minutes = 15;
  getJSON(paths.awayDelays(), { t }).then((delays) => { minutes = delays?.missedDoseAwayAfterMinutes ?? minutes; }, () => {})
    .then(() => getJSON(path, { t })).then(drawChoice, (problem) =>
    draw(h('p', { class: 'error', id: 'away-failed' }, t('settings.away.failed', { problem: problemMessage(problem) }))));
  return section;
}
