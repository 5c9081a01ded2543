// "Changes to the household" on the Household page, for the admin: who
// added, changed, linked, paired or archived what, newest first, each a
// sentence (household/audit.js) with its time. household.js reads the
// entries with the rest of the page, so a live change to people, care
// links, devices or settings brings the new line with it.
import { h } from '../../dom.js';
import { dateTime } from '../../care/format.js';
import { AUDIT_LIMIT, auditEntries, auditSentence } from '../../household/audit.js';

/** The list for `data.audit` (null when the hub could not give it). */
export function auditList(app, data) {
  const { t, language } = app;
  const timeZone = data.household?.timeZone ?? data.me?.timeZone ?? null;
  const intro = h('p', { class: 'hint' }, t('household.audit.intro', { count: AUDIT_LIMIT }));
  if (!Array.isArray(data.audit)) return [intro, h('p', { class: 'empty' }, t('household.audit.unavailable'))];
  const entries = auditEntries(data.audit);
  if (entries.length === 0) return [intro, h('p', { class: 'empty' }, t('household.audit.none'))];
  return [
    intro,
    h('ol', { id: 'household-audit-list', class: 'audit-list' }, entries.map((entry) => h('li', {
      class: 'audit-entry', 'data-seq': entry.seq ?? null, 'data-entity': entry.entity ?? null, 'data-op': entry.op ?? null,
    },
    h('time', { class: 'audit-time', datetime: entry.time ?? null }, dateTime(entry.time, { language, timeZone })),
    ' ',
    h('span', { class: 'audit-text' }, auditSentence(t, entry))))),
  ];
}
