// Every path of the hub's API the web uses, in one place: a page asks here
// for `paths.personAway(id)` rather than spelling '/people/…/away' itself,
// so each path is written once, every id in it is encoded, and
// tests/api-paths.test.js checks each one against openapi.yaml (a path the
// hub does not document fails the suite, and so does a path written as a
// literal anywhere else). The paths are under API_BASE, which getJSON and
// sendJSON (api.js) and the WebSockets (live.js, notes/) put in front.

/** Where the hub's API lives; every path below is under it. */
export const API_BASE = '/api/v1';

const enc = (id) => encodeURIComponent(id);

/**
 * `path?name=value&…` with the values given, encoded by URLSearchParams;
 * `true` is sent as 1, and undefined, null, false or '' leave the name
 * out. A space goes as %20, not +: the hub reads + as a plus sign.
 */
function withQuery(path, query) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === false || value === '') continue;
    params.set(name, value === true ? '1' : String(value));
  }
  const text = params.toString().replaceAll('+', '%20');
  return text === '' ? path : `${path}?${text}`;
}

export const paths = Object.freeze({
  // The hub and the household
  health: () => '/health',
  household: () => '/household',
  /** The household's change log, the newest `limit` entries. */
  householdAudit: ({ limit } = {}) => withQuery('/household/audit', { limit }),
  reminders: () => '/household/reminders',
  awayDelays: () => '/household/away-delays',
  emergencyContacts: () => '/household/emergency-contacts',

  // Pairing and devices
  pairing: () => '/pairing',
  invitations: () => '/pairing/invitations',
  invitation: (invitationId) => `/pairing/invitations/${enc(invitationId)}`,
  devices: () => '/devices',
  device: (deviceId) => `/devices/${enc(deviceId)}`,
  deviceApproval: (deviceId) => `/devices/${enc(deviceId)}/approve`,

  // People
  /** Everyone; `archived: true` the archived people instead (admins). */
  people: ({ archived } = {}) => withQuery('/people', { archived }),
  person: (personId) => `/people/${enc(personId)}`,
  personArchive: (personId) => `/people/${enc(personId)}/archive`,
  personRestore: (personId) => `/people/${enc(personId)}/restore`,
  /** The link that makes `caregiverId` one of the senior's caregivers. */
  careLink: (seniorId, caregiverId) => `/people/${enc(seniorId)}/caregivers/${enc(caregiverId)}`,
  personPanel: (personId) => `/people/${enc(personId)}/panel`,
  personDisplay: (personId) => `/people/${enc(personId)}/display`,
  personAway: (personId) => `/people/${enc(personId)}/away`,
  personScores: (personId) => `/people/${enc(personId)}/scores`,
  gameScores: (game) => `/games/${enc(game)}/scores`,

  // Alerts on phones
  alertApps: () => '/alert-apps',
  alertApp: (alertAppId) => `/alert-apps/${enc(alertAppId)}`,
  alertAppTest: () => '/alert-apps/test',

  // Notes
  /** The notes; `q` those matching the words, `trash: true` the Trash. */
  notes: ({ q, trash } = {}) => withQuery('/notes', { q, trash }),
  note: (noteId) => `/notes/${enc(noteId)}`,
  noteRestore: (noteId) => `/notes/${enc(noteId)}/restore`,
  /** The note's editing WebSocket (and, fetched, why it was refused). */
  noteEditing: (noteId) => `/notes/${enc(noteId)}/edit`,

  // Medicines and doses
  /** The medicines; `personId` one senior's, `inactive: true` the stopped ones too. */
  medications: ({ personId, inactive } = {}) => withQuery('/medications', { personId, inactive }),
  medication: (medicationId) => `/medications/${enc(medicationId)}`,
  medicationRefill: (medicationId) => `/medications/${enc(medicationId)}/refill`,
  medicationSchedules: (medicationId) => `/medications/${enc(medicationId)}/schedules`,
  medicationSchedule: (medicationId, scheduleId) => `/medications/${enc(medicationId)}/schedules/${enc(scheduleId)}`,
  today: () => '/today',
  takeAll: () => '/today/take-all',
  /** The doses recorded; `personId` one senior's, `from`…`to` (YYYY-MM-DD) those days. */
  doses: ({ personId, from, to } = {}) => withQuery('/doses', { personId, from, to }),
  dose: (doseId) => `/doses/${enc(doseId)}`,

  // Alerts
  /** The alerts, newest first: at most `limit`, of one `kind`, `open: true` open only, raised `before`. */
  alerts: ({ limit, kind, open, before } = {}) => withQuery('/alerts', { limit, kind, open, before }),
  alert: (alertId) => `/alerts/${enc(alertId)}`,
  alertDeliveries: (alertId) => `/alerts/${enc(alertId)}/deliveries`,
  alertAck: (alertId) => `/alerts/${enc(alertId)}/ack`,
  alertRespond: (alertId) => `/alerts/${enc(alertId)}/respond`,
  sos: () => '/sos',

  /** The live WebSocket; `since` the last change seen, so the hub replays what came after. */
  live: ({ since } = {}) => withQuery('/live', { since }),
});
