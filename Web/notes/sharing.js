// Who sees a note and who may change it, in words. A note is "private"
// (its owner only), "circle" (the owner's care circle: for a senior, the
// people who look after her; for a caregiver or admin, the seniors she
// looks after) or "shared" (the whole household); `readOnly` lets the
// others read it but not change it. Pure: the pages (notes-list.js,
// note-details.js, note-sharing.js) only draw what this says.

export const VISIBILITIES = Object.freeze(['private', 'circle', 'shared']);

/**
 * Whether `personId` may change `note` now. The REST answers say it
 * (`canEdit`), but a live-stream payload is the same for every listener
 * and leaves it out, so it is worked out here the way the hub does: the
 * owner always, the others unless the owner made it read-only. Whether
 * the person sees the note at all is the hub's to decide (it sends only
 * what they may see).
 */
export function canEditNote(note, personId) {
  if (!note) return false;
  if (personId != null && note.ownerId === personId) return true;
  return note.readOnly !== true;
}

/** The hub's `canEdit` when the note carries it (a REST answer), else canEditNote. */
export function mayEdit(note, personId) {
  return typeof note?.canEdit === 'boolean' ? note.canEdit : canEditNote(note, personId);
}

/**
 * The owner's choices of who sees a note, as [{ value, label }] with
 * translation keys: the care circle is worded from the owner's side
 * ("The people who look after me" for a senior, "The people I look after"
 * for everyone else).
 */
export function visibilityChoices(role) {
  return [
    { value: 'private', label: 'notes.sharing.choice.private' },
    { value: 'circle', label: role === 'senior' ? 'notes.sharing.choice.circleSenior' : 'notes.sharing.choice.circleCarer' },
    { value: 'shared', label: 'notes.sharing.choice.shared' },
  ];
}

/**
 * The people a circle note of `owner` reaches, sorted by name: for a
 * senior, everyone whose `caresFor` names her; for anyone else, the
 * people their own `caresFor` names.
 */
export function circleMembers(owner, people, language = 'en') {
  if (!owner) return [];
  const list = Array.isArray(people) ? people : [];
  const cares = (person) => (Array.isArray(person?.caresFor) ? person.caresFor : []);
  const members = owner.role === 'senior'
    ? list.filter((person) => person.id !== owner.id && cares(person).includes(owner.id))
    : list.filter((person) => person.id !== owner.id && cares(owner).includes(person.id));
  const collator = new Intl.Collator(language === 'pl' ? 'pl' : 'en');
  return members.sort((a, b) => collator.compare(String(a.name ?? ''), String(b.name ?? '')));
}

/** The circle's names for `viewer` ("you" for themself), or "nobody yet". */
export function circleNames(owner, people, viewerId, t, language = 'en') {
  const names = circleMembers(owner, people, language)
    .map((person) => (person.id === viewerId ? t('notes.sharing.you') : String(person.name ?? '').trim() || t('notes.sharing.someone')));
  return names.length > 0 ? names.join(', ') : t('notes.sharing.nobody');
}

/**
 * Who sees `note`, in one sentence for `viewer` ({ personId, people }),
 * and, unless it is private, who may change it. E.g. "Shared with the
 * people who look after Zofia: you, Jan. Only Zofia can change it."
 */
export function sharingSentence(note, viewer, t, language = 'en') {
  const personId = viewer?.personId ?? null;
  const people = Array.isArray(viewer?.people) ? viewer.people : [];
  const mine = personId != null && note?.ownerId === personId;
  const owner = people.find((person) => person.id === note?.ownerId) ?? null;
  const ownerName = String(owner?.name ?? '').trim();
  let words;
  if (note?.visibility === 'shared') {
    words = t('notes.sharing.shared');
  } else if (note?.visibility === 'circle') {
    if (!owner) {
      words = t('notes.sharing.circle.unknown');
    } else {
      const side = owner.role === 'senior' ? 'Senior' : 'Carer';
      words = t(`notes.sharing.circle.${mine ? 'mine' : 'other'}${side}`, {
        owner: ownerName || t('notes.sharing.someone'),
        names: circleNames(owner, people, personId, t, language),
      });
    }
  } else {
    return mine ? t('notes.sharing.private.mine') : t('notes.sharing.private.other');
  }
  if (note?.readOnly !== true) return words;
  const who = mine ? t('notes.sharing.readOnly.mine')
    : ownerName ? t('notes.sharing.readOnly.other', { owner: ownerName }) : t('notes.sharing.readOnly.unknown');
  return `${words}. ${who}`;
}

/** The editor's sentence for someone who may only read the note: "Only Zofia can change this note. You can read it." */
export function readOnlyNotice(note, people, t) {
  const owner = (Array.isArray(people) ? people : []).find((person) => person.id === note?.ownerId);
  const name = String(owner?.name ?? '').trim();
  return name ? t('notes.editor.readOnlyNotice', { owner: name }) : t('notes.editor.readOnlyNoticeUnknown');
}

/**
 * What to PATCH for the owner's choice `chosen` ({ visibility, readOnly })
 * on `note`: only what changed, and nothing about reading for a private
 * note (it keeps its readOnly for when it is shared again). Null when
 * nothing changed or the choice was cancelled.
 */
export function sharingPatch(note, chosen) {
  if (!chosen || !VISIBILITIES.includes(chosen.visibility)) return null;
  const body = {};
  if (chosen.visibility !== note?.visibility) body.visibility = chosen.visibility;
  if (chosen.visibility !== 'private' && (chosen.readOnly === true) !== (note?.readOnly === true)) body.readOnly = chosen.readOnly === true;
  return Object.keys(body).length > 0 ? body : null;
}

/** A new note's sharing for POST /notes: its visibility, and readOnly unless private. */
export function newNoteSharing(chosen) {
  const visibility = VISIBILITIES.includes(chosen?.visibility) ? chosen.visibility : 'private';
  return visibility === 'private' ? { visibility } : { visibility, readOnly: chosen.readOnly === true };
}
