// The hub's language (Household page, PATCH /household { language }): what
// its alerts on phones (the ntfy app) and its own voice say. Each browser
// keeps its own page language (the header's switch); this is the one the
// whole household hears. A form for admins, the value for everyone else;
// household-settings.js says when to draw it.
import { sendJSON } from '../../api.js';
import { paths } from '../../api-paths.js';
import { h } from '../../dom.js';
import { fieldAria, fieldBox } from '../../fields.js';
import { LANGUAGE_NAMES } from '../../i18n.js';
import { HUB_LANGUAGES, hubLanguagePatch } from '../../household/model.js';
import { drawSettings, saveButton, saveSettingsForm } from '../settings-fields.js';

const LANGUAGE_FIELDS = { language: 'household-language-select' };

/** `settings` is { app, state, current, announce, onSaved, languageElement } (see household-settings.js). */
export function drawHubLanguage(settings) {
  const { t } = settings.app;
  const language = settings.current.household?.language ?? null;
  drawSettings(settings, settings.languageElement, {
    intro: () => h('p', { id: 'household-language-intro' }, t('household.language.intro')),
    rows: () => [[t('household.language.label'), LANGUAGE_NAMES[language] ?? '', 'household-language-value']],
    form: () => languageForm(settings, language),
  });
}

function languageForm(settings, language) {
  const { t } = settings.app;
  const form = settings.state.language;
  form.typed ??= { language: language ?? '' };
  const id = LANGUAGE_FIELDS.language;
  const error = form.errors.language;
  const hint = t('household.language.intro');
  return h('form', { id: 'household-language-form', class: 'settings-form', novalidate: true, onsubmit: (event) => saveLanguage(settings, event) },
    fieldBox({
      id, label: t('household.language.label'), hint, error,
      control: h('select', {
        id, name: 'language', ...fieldAria(id, { hint, error }),
        onchange: (event) => {
          form.typed.language = event.target.value;
          form.saved = false;
        },
      }, HUB_LANGUAGES.map((value) => h('option', { value, lang: value, selected: value === form.typed.language }, LANGUAGE_NAMES[value]))),
    }),
    saveButton(t, form, 'save-household-language', t('household.language.save')));
}

/** "Save": only when it is another language than the hub's. */
function saveLanguage(settings, event) {
  const { t } = settings.app;
  event.preventDefault();
  return saveSettingsForm(settings, settings.state.language, {
    fieldIds: LANGUAGE_FIELDS, draw: () => drawHubLanguage(settings), keep: 'household',
    check(form) {
      const patch = hubLanguagePatch(settings.current.household, form.typed.language);
      return patch.errors ? { errors: { language: t('household.language.errors.languageUnknown') } } : patch;
    },
    send: (body) => sendJSON('PATCH', paths.household(), body, { t }),
    savedText: () => t('household.language.saved'),
  });
}
