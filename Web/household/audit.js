// "Changes to the household": each entry of GET /household/audit as a
// sentence in the page's language. The hub sends a neutral summary of what
// the thing looked like after the change (a person's name and role, a care
// link's two names, a device's name and whose it is), not words, so the
// words are chosen here; a shape this page does not know yet still reads
// as "{actor} changed {what}" rather than a blank line. Pure (given t), for
// the Node tests.

import { roleName } from './model.js';

/** How many entries the page asks for and shows. */
export const AUDIT_LIMIT = 50;

export const AUDIT_ENTITIES = Object.freeze(['person', 'careLink', 'device', 'alertApp', 'pairingCode', 'household']);

const text = (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * Who did it, in words: the person whose device did it, "the hub's
 * terminal" (`sudo hearth …`, `viaTerminal`), or "someone" (the hub itself).
 */
export function auditActor(t, entry) {
  if (entry?.viaTerminal === true) return t('household.audit.terminal');
  return text(entry?.actorName) ?? t('household.audit.someone');
}

function personSentences(t, op, summary, actor) {
  const name = text(summary.name);
  if (name === null) return null;
  if (summary.archived === true) return [t('household.audit.person.archived', { actor, name })];
  if (summary.restored === true) return [t('household.audit.person.restored', { actor, name })];
  const role = roleName(t, summary.role);
  if (op === 'delete') return [t('household.audit.person.deleted', { actor, name })];
  const formerName = text(summary.formerName);
  if (op === 'update' && formerName && formerName !== name) {
    return [t('household.audit.person.renamed', { actor, formerName, name })];
  }
  if (op === 'create') {
    return [role ? t('household.audit.person.created', { actor, name, role }) : t('household.audit.person.createdNoRole', { actor, name })];
  }
  // An update's summary is the person as they are now, not what changed: said as such.
  const phone = text(summary.phone);
  const facts = [role, phone ? t('household.audit.person.phone', { phone }) : t('household.audit.person.noPhone')].filter(Boolean);
  return [t('household.audit.person.updated', { actor, name, facts: facts.join(', ') })];
}

function careLinkSentences(t, op, summary, actor) {
  const caregiver = text(summary.caregiverName);
  const senior = text(summary.seniorName);
  if (caregiver === null || senior === null) return null;
  const linked = typeof summary.linked === 'boolean' ? summary.linked : op !== 'delete';
  return [t(linked ? 'household.audit.careLink.linked' : 'household.audit.careLink.unlinked', { actor, caregiver, senior })];
}

function deviceSentences(t, op, summary, actor) {
  const name = text(summary.name);
  if (name === null) return null;
  const person = text(summary.personName) ?? t('household.audit.someone');
  if (summary.revoked === true || op === 'delete') return [t('household.audit.device.removed', { actor, name, person })];
  if (op === 'create') return [t('household.audit.device.paired', { actor, name, person })];
  return [t('household.audit.device.changed', { actor, name, person })];
}

function pairingCodeSentences(t, op, summary, actor) {
  const person = text(summary.personName);
  if (op === 'create' && person) return [t('household.audit.pairingCode.made', { actor, person })];
  if (summary.used === true) return [t('household.audit.pairingCode.used', { actor })];
  return null;
}

function householdSentences(t, summary, actor) {
  const sentences = [];
  const name = text(summary.name);
  const timeZone = text(summary.timeZone);
  const language = text(summary.language);
  if (name) sentences.push(t('household.audit.household.name', { actor, name }));
  if (timeZone) sentences.push(t('household.audit.household.timeZone', { actor, timeZone }));
  if (language) {
    const words = ['en', 'pl'].includes(language) ? t(`household.audit.languages.${language}`) : language;
    sentences.push(t('household.audit.household.language', { actor, language: words }));
  }
  return sentences.length > 0 ? sentences : null;
}

/**
 * The entry ({ actorName, entity, op, summary }) as one line of text in
 * the language of `t`.
 */
export function auditSentence(t, entry) {
  const actor = auditActor(t, entry);
  const summary = entry?.summary !== null && typeof entry?.summary === 'object' && !Array.isArray(entry.summary) ? entry.summary : null;
  const op = entry?.op;
  let sentences = null;
  if (summary) {
    switch (entry.entity) {
      case 'person': sentences = personSentences(t, op, summary, actor); break;
      case 'careLink': sentences = careLinkSentences(t, op, summary, actor); break;
      case 'device': sentences = deviceSentences(t, op, summary, actor); break;
      case 'pairingCode': sentences = pairingCodeSentences(t, op, summary, actor); break;
      case 'household': sentences = householdSentences(t, summary, actor); break;
      default: break;
    }
  }
  if (sentences) return sentences.join(' ');
  const what = AUDIT_ENTITIES.includes(entry?.entity) ? t(`household.audit.entities.${entry.entity}`) : t('household.audit.entities.other');
  return t('household.audit.changed', { actor, what });
}

/** The entries newest first (by seq, else time), at most `limit`. */
export function auditEntries(entries, limit = AUDIT_LIMIT) {
  return (Array.isArray(entries) ? entries : [])
    .filter((entry) => entry && typeof entry === 'object')
    .slice()
    .sort((a, b) => (Number(b.seq) || 0) - (Number(a.seq) || 0) || String(b.time ?? '').localeCompare(String(a.time ?? '')))
    .slice(0, limit);
}
