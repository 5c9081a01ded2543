// Whose care circle a note reaches, and the owner's choices of it. A
// senior's circle note reaches the people who look after her. A
// caregiver's (or admin's) names a senior, `circleOf`: it reaches her and
// everyone who looks after her now, whoever owns it. A caregiver's circle
// note from before the hub kept `circleOf` reaches the seniors she looks
// after, as it was shared then. The hub decides (NoteAccess); this only
// words it, from GET /people (`caresFor`, and the caller's `alias`). Pure.
import { shownName } from '../care/me.js';
import { nameOrder } from '../name-order.js';

const caresFor = (person) => (Array.isArray(person?.caresFor) ? person.caresFor : []);

function byName(people, language) {
  const order = nameOrder(language);
  return people.sort((a, b) => order(shownName(a), shownName(b)));
}

/** The senior `seniorId` and everyone linked to her as a carer, sorted by name. */
export function seniorsCircle(seniorId, people, language = 'en') {
  const list = Array.isArray(people) ? people : [];
  return byName(list.filter((person) => person.id === seniorId || caresFor(person).includes(seniorId)), language);
}

/**
 * The people a circle note of `owner` reaches besides her, sorted by name:
 * with `circleOf`, that senior's circle; without, for a senior everyone
 * whose `caresFor` names her, for anyone else the people her own
 * `caresFor` names.
 */
export function circleMembers(owner, people, language = 'en', circleOf = null) {
  if (!owner) return [];
  const list = Array.isArray(people) ? people : [];
  if (circleOf) return seniorsCircle(circleOf, list, language).filter((person) => person.id !== owner.id);
  const members = owner.role === 'senior'
    ? list.filter((person) => person.id !== owner.id && caresFor(person).includes(owner.id))
    : list.filter((person) => person.id !== owner.id && caresFor(owner).includes(person.id));
  return byName(members, language);
}

/**
 * The owner's choices of who sees a note, as [{ key, visibility, circleOf,
 * label, params }] with translation keys; `key` is unique and names the
 * radio. "Only me"; the care circle — for a senior "The people who look
 * after me", for anyone else one choice per senior she looks after, named
 * ("Babcia Zosia and the people who look after them"), none when she looks
 * after no one; "Everyone in the household". The circle `note` is in now is
 * always a choice, though its owner no longer looks after that senior or
 * it is from before circles named one, so opening the dialog and saving
 * changes nothing. `me` is app.me.current ({ personId, role, people }).
 * A senior missing from `people` has an empty name (the page says "someone").
 */
export function sharingChoices(me, note = null, language = 'en') {
  const people = Array.isArray(me?.people) ? me.people : [];
  const person = people.find((p) => p.id === me?.personId) ?? null;
  const role = me?.role ?? person?.role ?? null;
  const circles = [];
  if (role === 'senior') {
    circles.push({ key: 'circle', visibility: 'circle', circleOf: null, label: 'notes.sharing.choice.circleSenior' });
  } else {
    const seniors = [...caresFor(person)];
    const current = note?.visibility === 'circle' ? note.circleOf ?? null : undefined;
    if (current === null) {
      circles.push({ key: 'circle', visibility: 'circle', circleOf: null, label: 'notes.sharing.choice.circleCarer' });
    } else if (current && !seniors.includes(current)) {
      seniors.push(current);
    }
    const named = byName(seniors.map((id) => people.find((p) => p.id === id) ?? { id }), language);
    for (const senior of named) {
      circles.push({
        key: `circle-${senior.id}`, visibility: 'circle', circleOf: senior.id,
        label: 'notes.sharing.choice.circleOf', params: { senior: shownName(senior) ?? '' },
      });
    }
  }
  return [
    { key: 'private', visibility: 'private', circleOf: null, label: 'notes.sharing.choice.private' },
    ...circles,
    { key: 'shared', visibility: 'shared', circleOf: null, label: 'notes.sharing.choice.shared' },
  ];
}

/** The key of the choice `note` ({ visibility, circleOf }) is in now among `choices`, or 'private'. */
export function chosenKey(note, choices) {
  const circleOf = note?.visibility === 'circle' ? note?.circleOf ?? null : null;
  const found = choices.find((choice) => choice.visibility === note?.visibility && (choice.circleOf ?? null) === circleOf)
    ?? choices.find((choice) => choice.visibility === note?.visibility);
  return found?.key ?? 'private';
}

/** Whether `me` may share a note with a care circle at all: a senior, or someone who looks after a senior. */
export function hasCircle(me) {
  if (me?.role === 'senior') return true;
  const person = (Array.isArray(me?.people) ? me.people : []).find((p) => p.id === me?.personId);
  return caresFor(person).length > 0;
}
