// Who sees a note and who may change it, in words. A note is "private"
// (its owner only), "circle" (a care circle: for a senior's note, the
// people who look after her; for a caregiver's or admin's, the senior she
// chose, `circleOf`, and the people who look after that senior — see
// circle.js) or "shared" (the whole household); `readOnly` lets the
// others read it but not change it. Pure: the pages (notes-list.js,
// note-details.js, note-sharing.js) only draw what this says.
import { shownName } from '../care/me.js';
import { circleMembers } from './circle.js';

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
 * The circle's names for `viewer` ("you" for themself), or "nobody yet":
 * everyone a circle note of `owner` reaches besides her (with `circleOf`,
 * that senior's circle), each as the viewer calls them.
 */
export function circleNames(owner, people, viewerId, t, language = 'en', circleOf = null) {
  const names = circleMembers(owner, people, language, circleOf)
    .map((person) => (person.id === viewerId ? t('notes.sharing.you') : String(shownName(person) ?? '').trim() || t('notes.sharing.someone')));
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
    if (note.circleOf && owner) {
      // A caregiver's note in a senior's circle: named from the senior's side.
      const senior = people.find((person) => person.id === note.circleOf);
      if (note.circleOf === personId) {
        // The senior herself: "you" is said once, then the people who look after her.
        const others = people.filter((person) => person.id !== personId);
        words = t('notes.sharing.circle.ofYou', { names: circleNames(owner, others, personId, t, language, note.circleOf) });
      } else {
        words = t('notes.sharing.circle.ofSenior', {
          senior: String(shownName(senior) ?? '').trim() || t('notes.sharing.someone'),
          names: circleNames(owner, people, personId, t, language, note.circleOf),
        });
      }
    } else if (!owner) {
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
 * What to PATCH for the owner's choice `chosen` ({ visibility, circleOf,
 * readOnly }) on `note`: only what changed (whose circle, for a circle the
 * owner named), and nothing about reading for a private note (it keeps its
 * readOnly for when it is shared again). Null when nothing changed or the
 * choice was cancelled.
 */
export function sharingPatch(note, chosen) {
  if (!chosen || !VISIBILITIES.includes(chosen.visibility)) return null;
  const body = {};
  if (chosen.visibility !== note?.visibility) body.visibility = chosen.visibility;
  if (chosen.visibility === 'circle' && chosen.circleOf && chosen.circleOf !== (note?.circleOf ?? null)) body.circleOf = chosen.circleOf;
  if (chosen.visibility !== 'private' && (chosen.readOnly === true) !== (note?.readOnly === true)) body.readOnly = chosen.readOnly === true;
  return Object.keys(body).length > 0 ? body : null;
}

/** A new note's sharing for POST /notes: its visibility, whose circle when chosen, and readOnly unless private. */
export function newNoteSharing(chosen) {
  const visibility = VISIBILITIES.includes(chosen?.visibility) ? chosen.visibility : 'private';
  if (visibility === 'private') return { visibility };
  const circle = visibility === 'circle' && chosen.circleOf ? { circleOf: chosen.circleOf } : {};
  return { visibility, ...circle, readOnly: chosen.readOnly === true };
}
