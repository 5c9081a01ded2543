// Settings: language, text size, theme and how fast things are read aloud.
// Each is a group of large radio buttons (easier to hit and to read aloud
// than a dropdown) that applies the moment it is chosen; there is no
// "Save" step to forget. They are kept on the hub for the person, so all
// their devices follow (care/display.js). Below them, for a caregiver, her
// choice to be texted when she is away (pages/household/away-choice.js), and the way
// to alerts on this phone (pages/alerts/phone-alerts.js), which is set up per phone.
import { h, pageHeading } from '../dom.js';
import { pageHref } from '../router.js';
import { LANGUAGES, LANGUAGE_NAMES } from '../i18n.js';
import { TEXT_SIZES, THEMES } from '../preferences.js';
import { SPEECH_RATE_NAMES } from '../care/display.js';
import { awayChoiceSection } from './household/away-choice.js';

function choiceGroup({ name, legend, choices, selected, labelFor, langFor, onPick }) {
  return h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, legend),
    choices.map((value) =>
      h(
        'label',
        { class: 'choice', for: `${name}-${value}`, lang: langFor?.(value) },
        h('input', {
          type: 'radio',
          id: `${name}-${value}`,
          name,
          value,
          checked: value === selected,
          onchange: () => onPick(value),
        }),
        h('span', {}, labelFor(value)),
      ),
    ),
  );
}

export function createSettingsPage(app) {
  return function renderSettings(outlet) {
    const { t } = app;
    const { textSize, theme } = app.preferences;
    outlet.append(
      pageHeading(t('pages.settings')),
      h('p', { class: 'hint', id: 'settings-everywhere' }, t('settings.everywhere')),
      choiceGroup({
        name: 'language',
        legend: t('settings.language'),
        choices: LANGUAGES,
        selected: app.language,
        labelFor: (value) => LANGUAGE_NAMES[value],
        langFor: (value) => value,
        onPick: async (value) => {
          await app.setLanguage(value);
          // The page was re-rendered in the new language; keep the keyboard
          // where it was.
          document.getElementById(`language-${value}`)?.focus();
        },
      }),
      choiceGroup({
        name: 'text-size',
        legend: t('settings.textSize'),
        choices: TEXT_SIZES,
        selected: textSize,
        labelFor: (value) => t(`settings.textSizes.${value}`),
        onPick: (value) => app.setPreference('textSize', value),
      }),
      choiceGroup({
        name: 'theme',
        legend: t('settings.theme'),
        choices: THEMES,
        selected: theme,
        labelFor: (value) => t(`settings.themes.${value}`),
        onPick: (value) => app.setPreference('theme', value),
      }),
      choiceGroup({
        name: 'speech-rate',
        legend: t('settings.speechRate'),
        choices: SPEECH_RATE_NAMES,
        selected: app.display?.speechRate ?? 'normal',
        labelFor: (value) => t(`arrange.rates.${value}`),
        onPick: (value) => app.saveDisplay?.({ speechRate: value }),
      }),
      ...[screenLinks(app), awayChoiceSection(app)].filter(Boolean),
      phoneAlertsLink(t),
    );
  };
}

/** For a senior: arranging her home screen's tiles, and her household (who looks after her, inviting someone new). */
function screenLinks(app) {
  const { t } = app;
  const me = app.me.current;
  if (me?.role !== 'senior' || !me.personId) return null;
  return h('section', { id: 'settings-screen', class: 'settings-link', 'aria-labelledby': 'settings-screen-heading' },
    h('h2', { id: 'settings-screen-heading' }, t('settings.screen.heading')),
    h('p', {}, t('settings.screen.text')),
    h('p', { class: 'form-actions' },
      h('a', { href: pageHref('arrange', me.personId), id: 'settings-arrange-link', class: 'button-link secondary' }, t('panel.arrangeMine')),
      h('a', { href: pageHref('household'), id: 'settings-household-link', class: 'button-link secondary' }, t('pages.household'))));
}

/** Where to set up alerts on this phone: a page of its own, linked from here and from Household. */
function phoneAlertsLink(t) {
  return h('section', { id: 'settings-phone-alerts', class: 'settings-link', 'aria-labelledby': 'settings-phone-alerts-heading' },
    h('h2', { id: 'settings-phone-alerts-heading' }, t('settings.phoneAlerts.heading')),
    h('p', {}, t('settings.phoneAlerts.text')),
    h('p', {}, h('a', { href: pageHref('phone-alerts'), id: 'settings-phone-alerts-link', class: 'button-link secondary' },
      t('pages.phone-alerts'))));
}
