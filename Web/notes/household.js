// Who is who, for the Notes pages: the household's people (to show a note's
// owner by name) and which of them is using this browser (only a note's
// owner may share it or make it private). Read once and kept; forget()
// after a person changed.
import { getJSON } from '../api.js';

export function createHousehold(app) {
  let people = new Map();
  let me = null;
  let loading = null;

  async function fetchAll() {
    const { t } = app;
    const [list, devices] = await Promise.all([getJSON('/people', { t }), getJSON('/devices', { t })]);
    people = new Map((Array.isArray(list) ? list : []).map((person) => [person.id, person.name]));
    me = (Array.isArray(devices) ? devices : []).find((device) => device.current)?.personId ?? null;
  }

  return {
    /** Resolves once people and "me" are known; a failure is retried next time. */
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
    get me() {
      return me;
    },
    nameOf(personId) {
      return people.get(personId) ?? null;
    },
  };
}
