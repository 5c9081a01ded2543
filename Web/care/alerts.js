// Which alerts sound and show in the banner on this device, and what they
// say. The hub lists every alert about the seniors a person may see; who it
// is *for* is its audience: "senior" (a dose is due) → that senior;
// "caregivers" (SOS, a missed dose, low stock) → their linked caregivers
// (and admins linked to them); "keepers" (the hub's clock) → admins and
// caregivers. A senior also sees their own SOS, to learn that help is
// coming. Pure, for the Node tests.

export const ALERT_KINDS = Object.freeze(['sos', 'dose-due', 'dose-missed', 'low-stock', 'clock']);

/**
 * Whether `alert` is meant for `me` ({ personId, role, caresFor? }). Without
 * `caresFor` the hub's own filtering (only alerts about seniors one looks
 * after are sent) is trusted for "caregivers".
 */
export function isForMe(alert, me) {
  if (!alert || !me) return false;
  switch (alert.audience) {
    case 'senior':
      return me.role === 'senior' && alert.personId === me.personId;
    case 'caregivers':
      if (me.role === 'senior' || alert.personId === me.personId) return false;
      return Array.isArray(me.caresFor) ? me.caresFor.includes(alert.personId) : true;
    case 'keepers':
      return me.role === 'admin' || me.role === 'caregiver';
    default:
      return false;
  }
}

/** A senior's own call for help, which their screen follows until it is closed. */
export function isOwnSOS(alert, me) {
  return alert?.kind === 'sos' && me?.role === 'senior' && alert.personId === me.personId;
}

/**
 * Whether she called it off herself: her own SOS closed by her "Cancel the
 * call" before anyone answered. Her "OK" after "I'm on my way" is not a
 * cancellation: help was coming.
 */
export function cancelledByHer(alert, me) {
  return isOwnSOS(alert, me) && isCancelledSOS(alert);
}

/**
 * An SOS its senior called off herself before anyone answered (the hub's
 * `CareAlert.isCancelledByItsSenior`): her caregivers are told all is well.
 */
export function isCancelledSOS(alert) {
  return alert?.kind === 'sos' && alert.open === false && !alert.respondedAt && Boolean(alert.acknowledgedAt)
    && Boolean(alert.personId) && alert.acknowledgedBy === alert.personId;
}

/** Open alerts for the banner: SOS first, then the newest first. */
export function bannerAlerts(alerts, me) {
  return (alerts ?? [])
    .filter((alert) => alert.open !== false && (isForMe(alert, me) || isOwnSOS(alert, me)))
    .sort((a, b) => {
      const sos = Number(b.kind === 'sos') - Number(a.kind === 'sos');
      return sos !== 0 ? sos : String(b.raisedAt ?? '').localeCompare(String(a.raisedAt ?? ''));
    });
}

/**
 * How far an alert has come, as a list compared in order: a reminder rings
 * again (its repeats grow, even after it was closed, since a snoozed dose's
 * reminder reopens), then someone says they are on the way, then it closes.
 * Each part only grows, so a smaller one is an older state.
 */
export function alertProgress(alert) {
  return [alert?.repeats ?? 0, Date.parse(alert?.notifiedAt ?? '') || 0, alert?.respondedAt ? 1 : 0, alert?.open === false ? 1 : 0];
}

/**
 * Whether `alert` is an older state than `known` of the same alert. The
 * answer to a request and the live stream race each other: the answer to the
 * SOS just slid can arrive after the live change that says who is coming.
 */
export function isOlderAlert(alert, known) {
  if (!known || !alert || known.id !== alert.id) return false;
  const [mine, theirs] = [alertProgress(alert), alertProgress(known)];
  const differs = mine.findIndex((part, index) => part !== theirs[index]);
  return differs >= 0 && mine[differs] < theirs[differs];
}

/** The list with `alert` put in (replacing the one with its id), unless the list has a later state of it. */
export function upsertAlert(alerts, alert) {
  if (!alert?.id) return alerts;
  if ((alerts ?? []).some((existing) => isOlderAlert(alert, existing))) return alerts;
  const list = (alerts ?? []).filter((existing) => existing.id !== alert.id);
  list.push(alert);
  return list;
}

/**
 * What makes an alert worth a sound: being new, being repeated by the
 * reminder service, or — for a senior's SOS — being answered.
 */
export function soundKey(alert) {
  return `${alert.id}:${alert.repeats ?? 0}:${alert.respondedAt ?? ''}`;
}

/** The keys in `shown` that were not in `heard` (a Set of soundKey). */
export function newSounds(shown, heard) {
  return shown.map(soundKey).filter((key) => !heard.has(key));
}

/**
 * The alert's sentence: { key, params } for t(). `amountText` turns the
 * dose's amount and unit into words ("2 tabletki"); `time` formats an ISO
 * instant as a clock time; `nameOf` finds a person's name by id;
 * `aliasOf` this person's own name for them ("Mama"), null when none.
 */
export function alertMessage(alert, me, {
  amountText = (a, u) => `${a} ${u}`, time = (iso) => iso, nameOf = () => null, aliasOf = () => null,
} = {}) {
  const d = alert?.details ?? {};
  // What this person calls her wins; then the name the alert keeps; not
  // every alert names its senior (low stock does not): look the name up.
  const person = aliasOf(alert?.personId) || d.personName || nameOf(alert?.personId) || '';
  const medication = d.medicationName ?? '';
  switch (alert?.kind) {
    case 'sos':
      if (isOwnSOS(alert, me)) {
        // Closed, her list says how it ended, not "Waiting for an answer…" for ever.
        if (alert.open === false) {
          return { key: cancelledByHer(alert, me) ? 'alerts.message.sosCancelled' : 'alerts.message.sosClosed', params: { time: time(alert.raisedAt) } };
        }
        return alert.respondedAt
          ? { key: 'alerts.message.sosAnswered', params: { name: d.respondedByName ?? '' } }
          : { key: 'alerts.message.sosSent', params: { time: time(alert.raisedAt) } };
      }
      return alert.respondedAt
        ? { key: 'alerts.message.sosOnTheWay', params: { person, name: d.respondedByName ?? '', time: time(alert.raisedAt) } }
        : { key: 'alerts.message.sos', params: { person, time: time(alert.raisedAt) } };
    case 'dose-due':
      if (me?.role === 'senior' && alert.personId === me.personId) {
        return { key: 'alerts.message.doseDueMine', params: { medication, amount: amountText(d.amount ?? 1, d.unit), time: d.plannedTime ?? '' } };
      }
      return { key: 'alerts.message.doseDue', params: { person, medication, amount: amountText(d.amount ?? 1, d.unit), time: d.plannedTime ?? '' } };
    case 'dose-missed':
      return { key: 'alerts.message.doseMissed', params: { person, medication, amount: amountText(d.amount ?? 1, d.unit), time: d.plannedTime ?? '' } };
    case 'low-stock':
      return d.daysRemaining === null || d.daysRemaining === undefined
        ? { key: 'alerts.message.lowStock', params: { person, medication } }
        : { key: 'alerts.message.lowStockDays', params: { person, medication, days: Math.floor(d.daysRemaining) } };
    case 'clock':
      return { key: 'alerts.message.clock', params: {} };
    default:
      return { key: 'alerts.message.other', params: {} };
  }
}

/**
 * Whether `me` answers this alert's dose from the banner (Taken, Skip,
 * Later): a senior's own reminder that a dose is due.
 */
export function answersDose(alert, me) {
  return alert?.kind === 'dose-due' && alert.open !== false && isForMe(alert, me);
}

/**
 * Whether "OK" may close it: not a dose's reminder still open, which only
 * an answer closes (the hub refuses, so no device clears it for another).
 */
export function canAcknowledge(alert) {
  return alert?.open !== false && alert?.kind !== 'dose-due';
}

/** The planned dose a reminder answers (POST /doses `key`), when it says. */
export function reminderDoseKey(alert) {
  const key = alert?.details?.doseKey;
  return typeof key === 'string' && key !== '' ? key : null;
}

/** "Omeprazol 20 mg": the medicine a dose alert is about. */
export function alertMedication(alert) {
  const d = alert?.details ?? {};
  return [d.medicationName, d.strength].filter((part) => part && String(part).trim() !== '').join(' ');
}

/**
 * How a dose's alert was closed by an answer, for the history: { key,
 * params } for t(), or null when no answer closed it. The hub keeps the
 * answer true to the dose as it is now (HearthStore+AlertAnswers): taken
 * late (`takenLate`, by the household's grace), put right since (who and
 * when: `correctedByName`), or taken back (`withdrawn`). `time` formats an
 * ISO instant as a moment (when it was answered or changed); `clock` as
 * the time of day the dose was taken.
 */
export function answeredState(alert, { time = (iso) => iso, clock = time } = {}) {
  const d = alert?.details ?? {};
  if (!alert?.resolvedAt || !['taken', 'skipped', 'snoozed', 'withdrawn'].includes(d.answer)) return null;
  // Put right since: the one who changed it, as History says, not the one who recorded what is no longer so.
  const changed = d.answer !== 'snoozed' && Boolean(d.correctedByName);
  const params = changed
    ? { name: d.correctedByName, when: time(d.correctedAt ?? alert.resolvedAt) }
    : { name: d.answeredByName || '', when: time(d.answeredAt ?? alert.resolvedAt) };
  if (d.answer === 'withdrawn') return { key: 'alerts.state.withdrawn', params };
  if (d.answer === 'taken' && d.takenAt) {
    const late = d.takenLate === true;
    const key = changed
      ? `alerts.state.changed.${late ? 'takenLateAt' : 'takenAt'}`
      : late ? 'alerts.state.answeredTakenLateAt' : 'alerts.state.answeredTakenAt';
    return { key, params: { ...params, time: clock(d.takenAt) } };
  }
  return { key: `alerts.state.${changed ? 'changed' : 'answered'}.${d.answer}`, params };
}

/** Whether the alert's sentence already says a time (an SOS's, a dose's). */
export function sentenceSaysTime(alert, me) {
  return Object.hasOwn(alertMessage(alert, me).params, 'time');
}

/**
 * Whether the banner takes the keyboard for `alert` when it arrives: an SOS
 * someone else raised, not yet answered, or a missed dose — what a
 * caregiver must not miss wherever she is on the page. A senior's own SOS
 * and reminders do not (she has just slid it; a reminder waits politely).
 */
export function takesFocus(alert, me) {
  if (!alert || alert.open === false || !isForMe(alert, me)) return false;
  if (alert.kind === 'sos') return !alert.respondedAt && !isOwnSOS(alert, me);
  return alert.kind === 'dose-missed';
}

/**
 * Whether the banner sticks to the top of the screen for `alert`: someone
 * else's SOS or a missed dose, open, answered or not — "I'm on my way"
 * must not send the banner (and her page) back to the top.
 */
export function staysInView(alert, me) {
  return alert?.open !== false && isForMe(alert, me) && !isOwnSOS(alert, me)
    && (alert.kind === 'sos' || alert.kind === 'dose-missed');
}

/**
 * Whether the banner keeps calling: an SOS someone else raised that nobody
 * has answered yet ("I'm on my way" or OK stops it).
 */
export function ringsUntilAnswered(shown, me) {
  return (shown ?? []).some((alert) => alert.kind === 'sos' && !alert.respondedAt && alert.open !== false && !isOwnSOS(alert, me));
}

/**
 * Whether the banner offers to call the senior back: an SOS someone else
 * raised, or a missed dose of hers, still open (a senior's own SOS shows
 * who is coming instead).
 */
export function offersCall(alert, me) {
  return (alert?.kind === 'sos' || alert?.kind === 'dose-missed') && alert.open !== false && Boolean(alert.personId) && !isOwnSOS(alert, me)
    && alert.personId !== me?.personId;
}

/** Whether this person may answer an SOS with "I'm on my way". */
export function canRespond(alert, me) {
  return alert?.kind === 'sos' && !alert.respondedAt && me?.role !== 'senior';
}
