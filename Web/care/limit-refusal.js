// The hub refuses an as-needed dose taken too soon or too often with a 409
// limit-reached problem that names the rule, the medication and the next
// allowed time (or the daily maximum) as fields, beside an English
// sentence. The fields are put into the page's language here; a problem
// without them is shown as the hub wrote it, so it still reaches the person.
// Pure, for the Node tests.

/** { key, params } for t() from a limit-reached problem body, or null when it lacks the fields. */
export function limitRefusalMessage(refusal) {
  if (refusal === null || typeof refusal !== 'object') return null;
  const medication = String(refusal.medicationName ?? '');
  if (refusal.rule === 'minimumInterval' && typeof refusal.nextAllowedTime === 'string') {
    return { key: 'today.refusal.tooSoon', params: { medication, time: refusal.nextAllowedTime } };
  }
  if (refusal.rule === 'dailyMaximum' && Number.isInteger(refusal.dailyMaximum)) {
    return { key: 'today.refusal.dailyMaximum', params: { medication, count: refusal.dailyMaximum } };
  }
  return null;
}

/** The refusal in the page's language when its fields are known, else the hub's own sentence. */
export function limitRefusalText(t, refusal) {
  const message = limitRefusalMessage(refusal);
  return message ? t(message.key, message.params) : String(refusal?.detail ?? '');
}
