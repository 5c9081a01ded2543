// How each person who looks after someone is reached when she is not at
// home, for the admin's "Away from home" section of the Household page:
// by text (she chose it, keeps a number, and the hub has a modem), by push
// through the Internet (she chose it and the hub pushes), or not at all,
// with the plain reason ("no phone number", "the hub has no modem"). The
// hub's answers are GET /people/{id}/away for each (her choice and what the
// hub can send) and the people list (her number). Also the emergency
// contacts as a request body. Pure, for the Node tests.

const COLLATOR_OPTIONS = { sensitivity: 'base' };

/**
 * [{ id, name, phone, reachedBy: ['sms'|'push'], reasons: [key] }], the
 * household's caregivers and admins by name; `awayById` maps a person's id
 * to her GET /people/{id}/away answer (missing: not read). A reason is a
 * key under household.away.reasons: chose nothing, no phone number, no
 * modem, no Internet push, not read.
 */
export function awayReach(people, awayById, { language = 'en' } = {}) {
  const list = (Array.isArray(people) ? people : [])
    .filter((person) => person && !person.archivedAt && (person.role === 'caregiver' || person.role === 'admin'));
  return list
    .map((person) => {
      const away = awayById?.[person.id];
      const phone = typeof person.phone === 'string' && person.phone.trim() !== '' ? person.phone.trim() : null;
      if (!away) return { id: person.id, name: person.name, phone, reachedBy: [], reasons: ['unknown'] };
      const reachedBy = [];
      const reasons = [];
      if (away.sms === true) {
        if (!away.textsPossible) reasons.push('noModem');
        else if (!phone) reasons.push('noPhone');
        else reachedBy.push('sms');
      }
      if (away.push === true) {
        if (away.pushPossible) reachedBy.push('push');
        else reasons.push('noPush');
      }
      if (away.sms !== true && away.push !== true) reasons.push('notChosen');
      return { id: person.id, name: person.name, phone, reachedBy, reasons };
    })
    .sort((a, b) => String(a.name).localeCompare(String(b.name), language, COLLATOR_OPTIONS));
}

/** How many of them are reached away from home at all. */
export function reachedCount(reach) {
  return reach.filter((entry) => entry.reachedBy.length > 0).length;
}

/** The emergency contacts as PUT /household/emergency-contacts takes them: rows left empty dropped, each trimmed. */
export function contactsRequest(rows) {
  return (Array.isArray(rows) ? rows : [])
    .map((row) => ({ name: String(row?.name ?? '').trim(), phone: String(row?.phone ?? '').trim() }))
    .filter((row) => row.name !== '' || row.phone !== '');
}

/** The most contacts the hub keeps (EmergencyContact.validatedList). */
export const MOST_CONTACTS = 5;

/**
 * What the hub says of its channels away from home (health's `alerts.sms`),
 * as lines for the admin: [{ key, params, warning }]. Texts this month
 * against the limit (a warning from four fifths), the modem's signal, and
 * why texts or pushes cannot go now.
 */
export function hubAwayLines(status) {
  if (!status || typeof status !== 'object') return [];
  const lines = [];
  if (status.smsEnabled) {
    const count = Number(status.textsThisMonth) || 0;
    const limit = Number(status.monthlyLimit) || 0;
    const near = limit > 0 && count * 5 >= limit * 4;
    lines.push({ key: near ? 'household.away.hub.textsNearLimit' : 'household.away.hub.texts', params: { count, limit }, warning: near });
    if (Number.isFinite(status.modem?.signalPercent)) {
      lines.push({ key: 'household.away.hub.signal', params: { percent: status.modem.signalPercent }, warning: status.modem.signalPercent < 10 });
    }
    if (status.modemProblem) lines.push({ key: 'household.away.hub.modemProblem', params: { problem: status.modemProblem }, warning: true });
    if (status.smsProblem) lines.push({ key: 'household.away.hub.smsProblem', params: { problem: status.smsProblem }, warning: true });
  }
  if (status.pushEnabled && status.pushProblem) {
    lines.push({ key: 'household.away.hub.pushProblem', params: { problem: status.pushProblem }, warning: true });
  }
  return lines;
}
