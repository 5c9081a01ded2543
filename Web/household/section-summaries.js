// What each section of the Household page says under its heading, in one
// line, so a person knows what is inside without opening it ("In all: 4 ·
// cared for: 1"); counts are "label: number", as elsewhere, since one
// string a key cannot say Polish plurals. Pure, for the Node tests.
import { dateTime } from '../care/format.js';
import { joinList } from '../care/words.js';
import { LANGUAGE_NAMES } from '../i18n.js';
import { alertAppEntries } from './alert-apps.js';
import { awayReach, reachedCount } from './away.js';
import { auditEntries } from './audit.js';
import { careLinkGroups, unlinkedCaregivers } from './care-links.js';
import { householdDevices, householdPeople } from './model.js';
import { archivedPeople } from './people.js';
import { devicesAwaitingApproval, peopleShownTo } from './sections.js';

const joined = (parts) => parts.filter(Boolean).join(' · ');

const SUMMARIES = {
  people(t, language, data) {
    const { me } = data;
    const people = householdPeople(peopleShownTo(me, data.people, data.links), data.links, { meId: me?.personId, language });
    if (people.length === 0) return t('household.people.none');
    if (me?.role === 'senior') {
      const mine = people.find((person) => person.isMe);
      return mine && mine.lookedAfterBy.length > 0
        ? t('household.people.lookedAfterBy', { names: joinList(language, mine.lookedAfterBy) })
        : t('household.sections.peopleAlone');
    }
    return t('household.sections.people', {
      count: people.length, seniors: people.filter((person) => person.role === 'senior').length,
    });
  },
  archived(t, language, data) {
    // GET /people?archived=1 lists everyone, the archived among them.
    const count = archivedPeople(data.archived).length;
    return count === 0 ? t('household.archived.none') : t('household.sections.archived', { count });
  },
  'care-links': (t, language, data) => {
    const seniors = careLinkGroups(data.people, data.links, { language });
    if (seniors.length === 0) return t('household.careLinks.noSeniors');
    const lonely = unlinkedCaregivers(data.people, data.links, { language }).length;
    return joined([
      t('household.sections.careLinks', { count: seniors.length }),
      lonely > 0 ? t('household.sections.careLinksLonely', { count: lonely }) : null,
    ]);
  },
  devices(t, language, data) {
    const devices = householdDevices(data.devices, data.people, { meId: data.me?.personId, language });
    if (devices.length === 0) return t('household.devices.none');
    const waiting = devicesAwaitingApproval(data.me, devices);
    const admin = data.me?.role === 'admin';
    return joined([
      t(admin ? 'household.sections.devices' : 'household.sections.devicesYours', { count: devices.length }),
      waiting > 0 ? t('household.sections.devicesWaiting', { count: waiting }) : null,
    ]);
  },
  'alert-apps': (t, language, data) => {
    const count = alertAppEntries(data.alertApps, data.people, { meId: data.me?.personId, language }).length;
    if (count === 0) return t('household.alertApps.none');
    return t(data.me?.role === 'admin' ? 'household.sections.alertApps' : 'household.sections.alertAppsYours', { count });
  },
  away(t, language, data) {
    const reach = awayReach(data.people, data.away, { language });
    const contacts = Array.isArray(data.contacts) ? data.contacts.length : 0;
    if (reach.length === 0) return t('household.sections.awayNobody');
    return t('household.sections.away', { reached: reachedCount(reach), count: reach.length, contacts });
  },
  'add-device': (t, language, data, { codeWaiting = false } = {}) => {
    if (codeWaiting) return t('household.invite.waiting');
    return t(data.me?.role === 'senior' ? 'household.sections.addDeviceSenior' : 'household.sections.addDevice');
  },
  reminders(t, language, data) {
    const { graceMinutes: grace, repeatMinutes: repeat } = data.reminders ?? {};
    return Number.isFinite(grace) && Number.isFinite(repeat) ? t('household.sections.reminders', { grace, repeat }) : '';
  },
  details: (t, language, data) => joined([data.household?.name, data.household?.timeZone]),
  language: (t, language, data) => LANGUAGE_NAMES[data.household?.language] ?? '',
  audit(t, language, data) {
    if (!Array.isArray(data.audit)) return t('household.audit.unavailable');
    const [latest] = auditEntries(data.audit);
    if (!latest) return t('household.audit.none');
    const timeZone = data.household?.timeZone ?? data.me?.timeZone ?? null;
    return t('household.sections.audit', { when: dateTime(latest.time, { language, timeZone }) });
  },
};

/**
 * The line under a section's heading, from the page's data ({ me, household,
 * people, links, devices, alertApps, reminders, archived, audit });
 * `extra.codeWaiting` when a pairing code is on screen. '' when there is
 * nothing to say (the data not read yet).
 */
export function sectionSummary(key, t, language, data, extra = {}) {
  if (!data || !Object.hasOwn(SUMMARIES, key)) return '';
  return SUMMARIES[key](t, language, data, extra);
}
