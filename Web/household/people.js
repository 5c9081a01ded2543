// A person's details as the Household page changes them and Today shows
// them: their phone number as typed and as a link a phone can call, who may
// change what about whom (mirroring the hub's PATCH /people/{id} rules, so
// a field a person may not change is not offered — the hub still decides),
// the PATCH body from the "Change…" form (with a caregiver's own name for
// a senior she looks after: "Mama"), and the people who look after a
// senior. Pure, for the Node tests.
import { PERSON_ALIAS_MAX_LENGTH, PERSON_NAME_MAX_LENGTH, ROLES } from './model.js';
import { languageOf } from '../i18n.js';

/** How many digits a phone number has (the hub's rule, loosely: E.164 allows 15). */
export const PHONE_DIGITS = Object.freeze({ min: 3, max: 15 });

// An optional leading +, then digits, spaces, dashes and parentheses.
const PHONE_SHAPE = /^\+?[\d\s\-()]+$/;

/**
 * Whether `text` reads as a phone number: "+48 601 234 567", "(22) 123-45-67".
 * Loose on purpose: the hub's 422 is what the person sees in the end.
 */
export function isPhoneNumber(text) {
  const value = String(text ?? '').trim();
  if (!PHONE_SHAPE.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  return digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max;
}

/**
 * The href that calls `phone` ("tel:+48601234567": digits and a leading +
 * only, since spaces and dashes in a tel: link trip some phones up), or
 * null when it is not a number a phone could call.
 */
export function telHref(phone) {
  if (typeof phone !== 'string' || !isPhoneNumber(phone)) return null;
  const value = phone.trim();
  return `tel:${value.startsWith('+') ? '+' : ''}${value.replace(/\D/g, '')}`;
}

/** Only admins; counted among the people still in the household (archived people are not listed). */
function adminCount(people) {
  return (people ?? []).filter((person) => person.role === 'admin' && !person.archivedAt).length;
}

/** Whether `person` is the household's only admin: their role stays, and they are not archived. */
export function isLastAdmin(people, person) {
  return person?.role === 'admin' && !person.archivedAt && adminCount(people) <= 1;
}

/**
 * What `me` ({ personId, role, looksAfter? }) may change about `person`:
 * { name, phone, role, archive, alias }. Anyone their own name and phone;
 * an admin anyone's, and only an admin a role or archiving. An admin is
 * not offered archiving themself: it would revoke the device in their hand
 * at once (another admin can do it). `alias`, their own name for her
 * ("Mama"), only for a senior they look after (`looksAfter` holds her id,
 * as app.me keeps their `caresFor`), whoever may change her name.
 */
export function personPermissions(me, person) {
  const admin = me?.role === 'admin' && Boolean(me.personId);
  const self = Boolean(me?.personId) && person?.id === me.personId;
  const details = Boolean(person) && (admin || self);
  return {
    name: details,
    phone: details,
    role: Boolean(person) && admin,
    archive: Boolean(person) && admin && !self && !person.archivedAt,
    alias: mayNameSenior(me, person),
  };
}

/** Whether `me` may give `person` a name of their own: a senior, still here, whom they look after. */
export function mayNameSenior(me, person) {
  return Boolean(me?.personId) && ['caregiver', 'admin'].includes(me.role)
    && person?.role === 'senior' && !person.archivedAt && person.id !== me.personId
    && Array.isArray(me.looksAfter) && me.looksAfter.includes(person.id);
}

/**
 * Whether `me` may arrange `person`'s screen (her panel and display
 * settings): her own, a senior they look after, anyone's for an admin —
 * the hub's rule (`.screen(of:)`); a senior's panel is what it is for.
 */
export function mayArrangeScreen(me, person) {
  if (!me?.personId || !person || person.archivedAt || person.role !== 'senior') return false;
  if (person.id === me.personId || me.role === 'admin') return true;
  return me.role === 'caregiver' && Array.isArray(me.looksAfter) && me.looksAfter.includes(person.id);
}

/** Whether the "Change…" dialog has anything for `me` to change about `person`. */
export function mayChangePerson(allowed) {
  return Boolean(allowed?.name || allowed?.phone || allowed?.role || allowed?.alias);
}

/**
 * The PATCH /people/{id} body from the "Change…" form, with only what
 * changed: { body } ({ body: null } when nothing did) or
 * { errors: { name?: "nameMissing"|"nameTooLong", phone?: "phoneInvalid", role?: "roleMissing", alias?: "aliasTooLong" } }.
 * An emptied phone field removes the number (phone: null), an emptied
 * alias the caller's own name for her (alias: null). `allowed` is
 * personPermissions(); a field not allowed is never sent.
 */
export function personPatch(person, typed, allowed) {
  const body = {};
  const errors = {};
  if (allowed?.name) {
    const name = String(typed?.name ?? '').trim();
    if (name === '') errors.name = 'nameMissing';
    else if ([...name].length > PERSON_NAME_MAX_LENGTH) errors.name = 'nameTooLong';
    else if (name !== person?.name) body.name = name;
  }
  if (allowed?.phone) {
    const phone = String(typed?.phone ?? '').trim();
    const had = typeof person?.phone === 'string' && person.phone !== '' ? person.phone : null;
    if (phone === '') {
      if (had !== null) body.phone = null;
    } else if (!isPhoneNumber(phone)) {
      errors.phone = 'phoneInvalid';
    } else if (phone !== had) {
      body.phone = phone;
    }
  }
  if (allowed?.role && typed?.role !== undefined) {
    if (!ROLES.includes(typed.role)) errors.role = 'roleMissing';
    else if (typed.role !== person?.role) body.role = typed.role;
  }
  // Whether a senior manages her own medicines: an admin's to say, for a senior.
  if (allowed?.role && person?.role === 'senior' && typeof typed?.managesOwnMedications === 'boolean'
    && typed.managesOwnMedications !== (person.managesOwnMedications === true)) {
    body.managesOwnMedications = typed.managesOwnMedications;
  }
  // The caller's own name for a senior they look after: `person.alias` is theirs, as GET /people says.
  if (allowed?.alias && typed?.alias !== undefined) {
    const alias = String(typed.alias ?? '').trim();
    const had = typeof person?.alias === 'string' && person.alias.trim() !== '' ? person.alias.trim() : null;
    if ([...alias].length > PERSON_ALIAS_MAX_LENGTH) {
      errors.alias = 'aliasTooLong';
    } else if (alias === '') {
      if (had !== null) body.alias = null;
    } else if (alias !== had) {
      body.alias = alias;
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { body: Object.keys(body).length > 0 ? body : null };
}

/**
 * The people who look after the senior `seniorId` (whose `caresFor` names
 * her), by name: [{ id, name, role, phone, href }], `phone` and `href`
 * null when no callable number is known.
 */
export function caregiversOf(people, seniorId, { language = 'en' } = {}) {
  const collator = new Intl.Collator(languageOf(language), { sensitivity: 'base' });
  return (Array.isArray(people) ? people : [])
    .filter((person) => person.id !== seniorId && !person.archivedAt
      && Array.isArray(person.caresFor) && person.caresFor.includes(seniorId))
    .map((person) => {
      const href = telHref(person.phone);
      return { id: person.id, name: person.name, role: person.role, phone: href ? person.phone.trim() : null, href };
    })
    .sort((a, b) => collator.compare(String(a.name ?? ''), String(b.name ?? '')));
}

/** Archived people (GET /people?archived=1 lists everyone), most recently archived first. */
export function archivedPeople(people) {
  return (Array.isArray(people) ? people : [])
    .filter((person) => typeof person.archivedAt === 'string' && person.archivedAt !== '')
    .sort((a, b) => b.archivedAt.localeCompare(a.archivedAt));
}
