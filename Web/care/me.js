// Who is using this browser: the person its device was paired for, their
// role (senior, caregiver, admin), and the household's people (names,
// phone numbers, who looks after whom, and this person's own name for a
// senior they look after: "Mama") and time zone. Read once and shared by every page and the alert banner; forget()
// when people or care links change.
import { getJSON } from '../api.js';
import { paths } from '../api-paths.js';

export function createMe(app) {
  let loading = null;
  let current = null;
  // Counts clear()s: an answer asked for before one is not kept after it.
  let era = 0;

  async function fetchAll() {
    const { t } = app;
    const asked = era;
    const [devices, people, household] = await Promise.all([
      getJSON(paths.devices(), { t }), getJSON(paths.people(), { t }), getJSON(paths.household(), { t }),
    ]);
    if (asked !== era) throw new DOMException('this device left the household meanwhile', 'AbortError');
    const personId = (Array.isArray(devices) ? devices : []).find((device) => device.current)?.personId ?? null;
    const list = Array.isArray(people) ? people : [];
    const person = list.find((p) => p.id === personId) ?? null;
    current = {
      personId,
      role: person?.role ?? null,
      // A senior an admin lets add, change and stop her own medicines.
      managesOwnMedications: person?.role === 'senior' && person?.managesOwnMedications === true,
      name: person?.name ?? '',
      // The seniors this person looks after (their `caresFor`). Not called
      // caresFor: alerts.js isForMe() reads that, and trusts the hub without it.
      looksAfter: Array.isArray(person?.caresFor) ? person.caresFor : [],
      people: list,
      timeZone: household?.timeZone ?? null,
    };
    return current;
  }

  return {
    /** Resolves to { personId, role, name, looksAfter, people, timeZone }; a failure is retried next time. */
    load() {
      loading ??= fetchAll().catch((problem) => {
        loading = null;
        throw problem;
      });
      return loading;
    },
    forget() {
      loading = null;
    },
    /**
     * Forgets who this was and the household's people too, not only the
     * answer to read again: a device removed from the household keeps none
     * of them, and what draws from them (the alert banner) draws nothing.
     */
    clear() {
      era += 1;
      loading = null;
      current = null;
    },
    /** The last answer, or null before the first. */
    get current() {
      return current;
    },
    /** What this person calls them: their own name for her ("Mama") when they gave one, else the name; null when unknown. */
    nameOf(personId) {
      return shownName(current?.people.find((p) => p.id === personId));
    },
    /** The name the household knows them by, whatever this person calls them. */
    realNameOf(personId) {
      return current?.people.find((p) => p.id === personId)?.name ?? null;
    },
    /** This person's own name for them ("Mama"), or null when they gave none. */
    aliasOf(personId) {
      return aliasOf(current?.people.find((p) => p.id === personId));
    },
    /** Their phone number as the hub keeps it ("+48 601 234 567"), or null when unknown. */
    phoneOf(personId) {
      const phone = current?.people.find((p) => p.id === personId)?.phone;
      return typeof phone === 'string' && phone.trim() !== '' ? phone.trim() : null;
    },
  };
}

/**
 * The caller's own name for `person` (GET /people's `alias`: "Mama"), or
 * null when they gave none. Only the caller sees it; a senior has none for
 * herself.
 */
export function aliasOf(person) {
  const alias = person?.alias;
  return typeof alias === 'string' && alias.trim() !== '' ? alias.trim() : null;
}

/** The name shown for `person` to the caller: their alias when there is one, else the name; null for nobody. */
export function shownName(person) {
  return aliasOf(person) ?? person?.name ?? null;
}

/**
 * Whether this person adds, changes and stops medicines: caregivers and
 * admins (for the seniors they look after, the hub decides which), and a
 * senior an admin lets manage her own.
 */
export function mayChangeMedicines(me) {
  if (!me?.role) return false;
  return me.role !== 'senior' || me.managesOwnMedications === true;
}

/**
 * The seniors whose medications and day this person looks after (a senior:
 * only themself), as [{ personId, name, realName }]: `name` as this person
 * calls her ("Mama"), `realName` as the household knows her (for what is
 * printed or saved for others). From /today, which lists exactly them.
 */
export async function caredForSeniors(app, signal) {
  const me = await app.me.load();
  if (me.role === 'senior') return [{ personId: me.personId, name: me.name, realName: me.name }];
  const today = await getJSON(paths.today(), { t: app.t, signal });
  return (today?.people ?? []).map((person) => ({
    personId: person.personId, name: app.me.aliasOf(person.personId) ?? person.name, realName: person.name,
  }));
}
