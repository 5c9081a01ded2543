// The Household page in sections a person opens one at a time, without the
// page: which sections each person sees, which are open when the page opens,
// and how this device remembers the sections a person left open. A section is
// shown only to whom the hub lets do or see what is in it: the admin's
// sections (the archived people, who looks after whom, the household's
// settings, its changes) are routes the hub refuses anyone else with 403,
// so nobody else gets even their headings; adding a device is the admin's
// and a senior's (a code for her caregiver's phone), never a caregiver's.
// A senior's People are hers: herself and those who look after her.
// Pure, for the Node tests; pages/household/household-sections.js draws the sections.
import { invitationScope } from './model.js';

/**
 * The sections in the page's order: `key` names it in a link
 * (#/household/devices) and on this device, `id` is its element's (and
 * `${id}-heading` its heading's), `who` whom it is shown to.
 */
export const HOUSEHOLD_SECTIONS = Object.freeze([
  { key: 'people', id: 'household-people', heading: 'household.people.heading', who: 'everyone' },
  { key: 'archived', id: 'archived-people', heading: 'household.archived.heading', who: 'admin' },
  { key: 'care-links', id: 'household-care-links', heading: 'household.careLinks.heading', who: 'admin' },
  { key: 'devices', id: 'household-devices', heading: 'household.devices.heading', who: 'everyone' },
  { key: 'alert-apps', id: 'household-alert-apps', heading: 'household.alertApps.heading', who: 'everyone' },
  { key: 'away', id: 'household-away', heading: 'household.away.heading', who: 'admin' },
  { key: 'add-device', id: 'household-add-device', heading: 'household.invite.heading', who: 'inviter' },
  { key: 'reminders', id: 'household-reminders', heading: 'household.reminders.heading', who: 'admin' },
  { key: 'details', id: 'household-details', heading: 'household.details.heading', who: 'admin' },
  { key: 'language', id: 'household-language', heading: 'household.language.heading', who: 'admin' },
  { key: 'audit', id: 'household-audit', heading: 'household.audit.heading', who: 'admin' },
].map(Object.freeze));

const KEYS = new Set(HOUSEHOLD_SECTIONS.map((section) => section.key));

/** Where this device keeps the sections a person opened or closed. */
export const OPEN_SECTIONS_STORAGE_KEY = 'hearth.household.open';

function shownTo(who, me) {
  if (who === 'everyone') return true;
  if (who === 'admin') return me.role === 'admin';
  return invitationScope(me) !== null;
}

/**
 * The keys of the sections `me` ({ personId, role }) sees, in order. Until
 * the page knows who this is, only People (which says it is loading).
 */
export function sectionsShownTo(me) {
  if (!me?.personId) return ['people'];
  return HOUSEHOLD_SECTIONS.filter((section) => shownTo(section.who, me)).map((section) => section.key);
}

/**
 * Whether a section is open when the page opens: as this person left it on
 * this device, else only People (whom the household is about, and where
 * each person's "Change…" and "Arrange screen" are).
 */
export function openAtStart(key, saved = {}) {
  return typeof saved[key] === 'boolean' ? saved[key] : key === 'people';
}

/** What this device kept (JSON text, or anything else) as { key: open }, known sections only. */
export function readOpenSections(text) {
  let parsed;
  try {
    parsed = JSON.parse(String(text ?? ''));
  } catch {
    return {};
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).filter(([key, open]) => KEYS.has(key) && typeof open === 'boolean'));
}

/** `saved` with one section opened or closed (a new object, to keep as JSON). */
export function withSectionOpen(saved, key, open) {
  return KEYS.has(key) ? { ...saved, [key]: Boolean(open) } : { ...saved };
}

/** The section a link names (#/household/devices → "devices"), or null. */
export function sectionOfRoute(params) {
  const key = Array.isArray(params) ? params[0] : null;
  return KEYS.has(key) ? key : null;
}

/**
 * The devices waiting for an admin's approval, for an admin only: Devices
 * opens for them whatever was left closed, as it needs them.
 */
export function devicesAwaitingApproval(me, devices) {
  if (me?.role !== 'admin') return 0;
  return (Array.isArray(devices) ? devices : []).filter((device) => device?.awaitingApproval === true && !device.revoked).length;
}

/**
 * The people a person's People section lists: everyone for an admin or a
 * caregiver; for a senior herself and those who look after her (`links`
 * are [{ caregiverId, seniorId }]).
 */
export function peopleShownTo(me, people, links = []) {
  const list = Array.isArray(people) ? people : [];
  if (me?.role !== 'senior' || !me.personId) return list;
  const hers = new Set((links ?? []).filter((link) => link.seniorId === me.personId).map((link) => link.caregiverId));
  return list.filter((person) => person.id === me.personId || hers.has(person.id));
}
