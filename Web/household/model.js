// The Household page's data, without the page: the people in the order the
// page lists them with who looks after whom, each device with the name of
// the person it belongs to, what this person may do here, and the forms
// read into request bodies. The rules mirror PermissionPolicy and the
// invitation route so that a button a person may not use is not shown; the
// hub still decides, and its refusal is shown when it says no.
// Pure, for the Node tests.

import { nameOrder } from '../name-order.js';

export const ROLES = Object.freeze(['senior', 'caregiver', 'admin']);

/** A role in the reader's words ("Senior", "Opiekun"); null for a role this page does not know. */
export function roleName(t, role) {
  return ROLES.includes(role) ? t(`household.roles.${role}`) : null;
}

/** Limits the hub checks (Person.maximumNameLength, ReminderSettings.validated). */
export const PERSON_NAME_MAX_LENGTH = 80;
/** A caregiver's own name for a senior she looks after ("Mama"). */
export const PERSON_ALIAS_MAX_LENGTH = 80;
export const HOUSEHOLD_NAME_MAX_LENGTH = 100;
export const GRACE_MINUTES = Object.freeze({ min: 1, max: 720 });
export const REPEAT_MINUTES = Object.freeze({ min: 1, max: 240 });

const roleOrder = (role) => {
  const index = ROLES.indexOf(role);
  return index === -1 ? ROLES.length : index;
};


/**
 * The people as the page lists them: the seniors first (the household is
 * about them), then caregivers, then admins; by name within each.
 * `links` are care links, [{ caregiverId, seniorId }]; a link to someone
 * not in the list is left out. Each entry:
 * { id, name, role, isMe, looksAfter: [name], lookedAfterBy: [name] }.
 */
export function householdPeople(people, links = [], { meId = null, language = 'en' } = {}) {
  const compare = nameOrder(language);
  const list = Array.isArray(people) ? people : [];
  const nameOf = new Map(list.map((person) => [person.id, person.name]));
  const known = (links ?? []).filter((link) => nameOf.has(link.caregiverId) && nameOf.has(link.seniorId));
  const names = (ids) => [...new Set(ids)].map((id) => nameOf.get(id)).sort(compare);
  return list
    .map((person) => ({
      id: person.id,
      name: person.name,
      role: person.role,
      isMe: person.id === meId,
      looksAfter: names(known.filter((link) => link.caregiverId === person.id).map((link) => link.seniorId)),
      lookedAfterBy: names(known.filter((link) => link.seniorId === person.id).map((link) => link.caregiverId)),
    }))
    .sort((a, b) => roleOrder(a.role) - roleOrder(b.role) || compare(a.name, b.name));
}

/**
 * The care links as the hub lists them: each person's `caresFor` names the
 * seniors they look after (those this device may see).
 */
export function careLinksOf(people) {
  return (people ?? []).flatMap((person) => (Array.isArray(person.caresFor) ? person.caresFor : [])
    .map((seniorId) => ({ caregiverId: person.id, seniorId })));
}

/**
 * The devices as the page lists them: this one first, then by whose they
 * are and by name. Each gets `ownerName` (null when the person is not in
 * the list, e.g. archived), `isMine`, and `addedByName`: who else's device
 * showed the code it was paired with (null when none, or not listed).
 */
export function householdDevices(devices, people, { meId = null, language = 'en' } = {}) {
  const compare = nameOrder(language);
  const nameOf = new Map((people ?? []).map((person) => [person.id, person.name]));
  return (Array.isArray(devices) ? devices : [])
    .filter((device) => !device.revoked)
    .map((device) => ({
      ...device,
      ownerName: nameOf.get(device.personId) ?? null,
      isMine: device.personId === meId,
      // Whose device showed the code it was paired with (a senior's tablet
      // adding a caregiver's phone), when that is someone else.
      addedByName: device.pairedBy && device.pairedBy !== device.personId ? (nameOf.get(device.pairedBy) ?? null) : null,
    }))
    .sort((a, b) => Number(b.current === true) - Number(a.current === true)
      || compare(a.ownerName, b.ownerName) || compare(a.name, b.name));
}

/** A device waiting for approval is approved by an admin. */
export function canApproveDevice(me, device) {
  return me?.role === 'admin' && device?.awaitingApproval === true;
}

/** Admins remove any device; everyone else only their own (this one included). */
export function canRemoveDevice(me, device) {
  if (!me?.personId || !device) return false;
  return me.role === 'admin' || device.personId === me.personId;
}

/** Only admins rename the household, move its time zone or change its reminders. */
export function canManageHousehold(me) {
  return me?.role === 'admin';
}

/**
 * Whom this person may make a pairing code for: "anyone" (an admin: someone
 * in the household or someone new, in any role), "caregivers" (a senior:
 * only someone new who will look after her), or null.
 */
export function invitationScope(me) {
  if (me?.role === 'admin') return 'anyone';
  if (me?.role === 'senior') return 'caregivers';
  return null;
}

/**
 * The people a code may be made for, in list order: an admin's choice of
 * anyone. A senior is offered nobody who exists: whoever holds the code's
 * device acts as that person, and her caregiver may look after other
 * seniors too, whose notes and medicines her tablet must not reach (the
 * hub refuses it as well).
 */
export function inviteeChoices(me, people, language = 'en') {
  if (invitationScope(me) !== 'anyone') return [];
  return householdPeople(people, [], { meId: me?.personId, language });
}

/**
 * The roles someone new may be given by a code this person makes: any for
 * an admin; for a senior only "caregiver" (the hub then links them to look
 * after her, and refuses any other role), so her form asks no role.
 */
export function newPersonRoles(scope) {
  if (scope === 'anyone') return ROLES;
  if (scope === 'caregivers') return Object.freeze(['caregiver']);
  return Object.freeze([]);
}

/**
 * For whom the form offers a code, in the order shown: "existing" (one of
 * the choices, from inviteeChoices) and "new". An admin has both; a senior
 * only "new"; someone with no scope, nothing.
 */
export function invitationKinds(scope) {
  if (scope === 'anyone') return ['existing', 'new'];
  if (scope === 'caregivers') return ['new'];
  return [];
}

/**
 * The body of POST /pairing/invitations from the form, or the fields to
 * fix: { body } | { errors: { field: reason } }, reason one of
 * "personMissing", "nameMissing", "nameTooLong", "roleMissing".
 * `scope` is invitationScope(me): a senior's someone new is always a
 * caregiver, whatever role the form holds (her form shows none to pick).
 */
export function invitationRequest({ who = 'existing', personId = '', name = '', role = '' } = {}, { scope = 'anyone' } = {}) {
  if (who === 'new') {
    const roles = newPersonRoles(scope);
    const chosen = roles.length === 1 ? roles[0] : role;
    const trimmed = String(name ?? '').trim();
    const errors = {};
    if (trimmed === '') errors.name = 'nameMissing';
    else if ([...trimmed].length > PERSON_NAME_MAX_LENGTH) errors.name = 'nameTooLong';
    if (!roles.includes(chosen)) errors.role = 'roleMissing';
    return Object.keys(errors).length > 0 ? { errors } : { body: { newPerson: { name: trimmed, role: chosen } } };
  }
  if (!personId) return { errors: { personId: 'personMissing' } };
  return { body: { personId } };
}

/**
 * What to say beside a code once made, from whose scope and the body sent:
 * "newCaregiverOfMe" when a senior made it for someone new (whoever uses it
 * joins as a caregiver who looks after her), otherwise null.
 */
export function invitationNote(scope, body) {
  return scope === 'caregivers' && body?.newPerson ? 'newCaregiverOfMe' : null;
}

function wholeMinutes(text, { min, max }) {
  const value = String(text ?? '').trim();
  if (!/^\d{1,4}$/.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

/**
 * The body of PUT /household/reminders from what was typed, or the fields
 * to fix: { body } | { errors: { graceMinutes?: "graceMinutes", repeatMinutes?: "repeatMinutes" } }.
 */
export function remindersRequest({ graceMinutes, repeatMinutes }) {
  const grace = wholeMinutes(graceMinutes, GRACE_MINUTES);
  const repeat = wholeMinutes(repeatMinutes, REPEAT_MINUTES);
  const errors = {};
  if (grace === null) errors.graceMinutes = 'graceMinutes';
  if (repeat === null) errors.repeatMinutes = 'repeatMinutes';
  return Object.keys(errors).length > 0 ? { errors } : { body: { graceMinutes: grace, repeatMinutes: repeat } };
}

/**
 * The PATCH /household body with only what changed ({ body: null } when
 * nothing did), or { errors: { name: "householdNameMissing" | "householdNameTooLong" } }.
 */
export function householdPatch(current, { name, timeZone }) {
  const trimmed = String(name ?? '').trim();
  if (trimmed === '') return { errors: { name: 'householdNameMissing' } };
  if ([...trimmed].length > HOUSEHOLD_NAME_MAX_LENGTH) return { errors: { name: 'householdNameTooLong' } };
  const body = {};
  if (trimmed !== current?.name) body.name = trimmed;
  if (timeZone && timeZone !== current?.timeZone) body.timeZone = timeZone;
  return Object.keys(body).length > 0 ? { body } : { body: null };
}

/** The languages the hub's alerts on phones and its voice speak (HouseholdLanguage). */
export const HUB_LANGUAGES = Object.freeze(['en', 'pl']);

/**
 * The PATCH /household body for the hub's language ({ body: null } when it
 * is the one kept already), or { errors: { language: "languageUnknown" } }.
 */
export function hubLanguagePatch(current, language) {
  if (!HUB_LANGUAGES.includes(language)) return { errors: { language: 'languageUnknown' } };
  return language === current?.language ? { body: null } : { body: { language } };
}

/** The regions of the time-zone list, in the order shown; anything else is "other". */
export const TIME_ZONE_REGIONS = Object.freeze(['Europe', 'America', 'Asia', 'Africa', 'Australia', 'Pacific', 'Atlantic', 'Indian', 'Antarctica', 'Arctic']);

/** "America/Argentina/Buenos_Aires" → "Argentina – Buenos Aires"; "UTC" → "UTC". */
export function timeZoneLabel(zone) {
  const parts = String(zone ?? '').split('/');
  const place = parts.length > 1 ? parts.slice(1) : parts;
  return place.map((part) => part.replaceAll('_', ' ')).join(' – ');
}

/** Lower case, without Polish or other accents, underscores as spaces: for finding. */
function folded(text) {
  return String(text ?? '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').replaceAll('ł', 'l').replaceAll('Ł', 'L')
    .replaceAll('_', ' ').toLowerCase();
}

/**
 * The time-zone picker's list: over 400 zone names, grouped so a family
 * finds theirs. First the household's own zone and this device's
 * (`region: 'yours'`), then each region's zones by place name; `query`
 * keeps only zones whose name or place contains it (the household's zone
 * always stays, so the list never loses what is chosen).
 * [{ region, zones: [{ value, label }] }]
 */
export function timeZoneGroups(current, {
  supported = Intl.supportedValuesOf?.('timeZone') ?? [],
  deviceZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
  query = '',
} = {}) {
  const zones = new Set(supported);
  if (current) zones.add(current);
  const wanted = folded(query).trim();
  const matches = (zone) => !wanted || folded(zone).includes(wanted) || folded(timeZoneLabel(zone)).includes(wanted);
  const option = (zone) => ({ value: zone, label: zone.includes('/') ? `${timeZoneLabel(zone)} (${zone})` : zone });
  const yours = [...new Set([current, deviceZone])].filter((zone) => zone && zones.has(zone) && (zone === current || matches(zone)));
  const byRegion = new Map();
  for (const zone of zones) {
    if (yours.includes(zone) || !matches(zone)) continue;
    const first = zone.split('/')[0];
    const region = zone.includes('/') && TIME_ZONE_REGIONS.includes(first) ? first : 'other';
    if (!byRegion.has(region)) byRegion.set(region, []);
    byRegion.get(region).push(zone);
  }
  const groups = yours.length > 0 ? [{ region: 'yours', zones: yours.map(option) }] : [];
  for (const region of [...TIME_ZONE_REGIONS, 'other']) {
    const list = byRegion.get(region);
    if (!list) continue;
    list.sort((a, b) => timeZoneLabel(a).localeCompare(timeZoneLabel(b), 'en') || a.localeCompare(b));
    groups.push({ region, zones: list.map(option) });
  }
  return groups;
}
