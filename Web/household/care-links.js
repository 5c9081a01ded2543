// Who looks after whom, as the Household page's admin changes it: each
// senior with the people who look after her and those who could be added,
// and the caregivers who look after nobody (they see no medicines and get
// no alerts, and nothing else on the page would tell the admin why).
// The hub decides (PUT/DELETE /people/{senior}/caregivers/{caregiver});
// this only keeps the page from offering what it would refuse.
// Pure, for the Node tests.

import { nameOrder } from '../name-order.js';

/** Roles the hub accepts as the one who looks after (PermissionPolicy: caregivers and admins). */
const CARERS = new Set(['caregiver', 'admin']);

function byName(language) {
  const order = nameOrder(language);
  return (a, b) => order(a.name, b.name) || String(a.id).localeCompare(String(b.id));
}

const listed = (people) => (Array.isArray(people) ? people : []).filter((person) => person && person.id);

/**
 * Each senior, by name: { id, name, caregivers: [person], candidates: [person] },
 * `caregivers` those who look after her, `candidates` the caregivers and
 * admins who do not yet (both by name). `links` are [{ caregiverId, seniorId }];
 * a link naming someone not in `people` is left out.
 */
export function careLinkGroups(people, links = [], { language = 'en' } = {}) {
  const compare = byName(language);
  const everyone = listed(people);
  const carers = everyone.filter((person) => CARERS.has(person.role));
  const carerIds = new Set(carers.map((person) => person.id));
  return everyone
    .filter((person) => person.role === 'senior')
    .map((senior) => {
      const linked = new Set((links ?? [])
        .filter((link) => link.seniorId === senior.id && carerIds.has(link.caregiverId))
        .map((link) => link.caregiverId));
      const pick = (want) => carers.filter((person) => linked.has(person.id) === want).map(entry).sort(compare);
      return { id: senior.id, name: senior.name, caregivers: pick(true), candidates: pick(false) };
    })
    .sort(compare);
}

/**
 * The caregivers who look after no senior in the list, by name. Admins are
 * left out: they see everything whether or not they look after anyone.
 */
export function unlinkedCaregivers(people, links = [], { language = 'en' } = {}) {
  const everyone = listed(people);
  const seniorIds = new Set(everyone.filter((person) => person.role === 'senior').map((person) => person.id));
  const linked = new Set((links ?? []).filter((link) => seniorIds.has(link.seniorId)).map((link) => link.caregiverId));
  return everyone
    .filter((person) => person.role === 'caregiver' && !linked.has(person.id))
    .map(entry)
    .sort(byName(language));
}

function entry(person) {
  return { id: person.id, name: person.name, role: person.role };
}
