// Calls to the hub's JSON API. Failures become a HubProblem carrying the
// sentence to show the user: the problem+json `detail`, else its `title`,
// else a translated generic message, so a page never crashes on an error.
// Every answer says the hub's time, which hub-clock.js keeps.

import { learnHubTime } from './hub-clock.js';
import { API_BASE } from './api-paths.js';

export class HubProblem extends Error {
  constructor(message, { status = 0, type = null, retryAfter = null, errors = null, body = null } = {}) {
    super(message);
    this.name = 'HubProblem';
    this.status = status;
    this.type = type;
    /** The problem document as the hub sent it (its extra fields say more, e.g. limit-reached), or null. */
    this.body = body;
    /** For a 422: what is wrong with each field, { name: "must not be empty" }; else null. */
    this.errors = errors;
    /** Seconds to wait before trying again (from Retry-After on a 429), or null. */
    this.retryAfter = retryAfter;
  }
}

/**
 * True when the hub refused because this browser is not (or no longer) a
 * paired device: every page then shows the "not paired" message instead of
 * an error.
 */
export function isUnpaired(problem) {
  return problem instanceof HubProblem && problem.status === 401;
}

/** True when the hub let this device pair but an admin has not approved it yet (403 awaiting-approval). */
export function isAwaitingApproval(problem) {
  return problem instanceof HubProblem && problem.status === 403 && problem.type === 'urn:hearth:problem:awaiting-approval';
}

/**
 * True when the hub could not be reached, or did not let this device in
 * yet (awaiting an admin's approval): both stop being true when the live
 * connection opens, so what they made a page say goes then.
 */
export function isConnectionProblem(problem) {
  return problem instanceof HubProblem && (problem.status === 0 || isAwaitingApproval(problem));
}

/** Retry-After as whole seconds; an HTTP date or garbage gives null. */
export function retryAfterSeconds(value) {
  const text = String(value ?? '').trim();
  if (!/^\d{1,6}$/.test(text)) return null;
  return Number(text);
}

/** The sentence to show for an RFC 9457 problem body (or null if none). */
export function problemMessage(problem) {
  if (problem === null || typeof problem !== 'object') return null;
  for (const field of ['detail', 'title']) {
    const text = problem[field];
    if (typeof text === 'string' && text.trim() !== '') return text.trim();
  }
  return null;
}

/** A problem's per-field messages ({ field: sentence }), or null when it has none. */
export function fieldErrors(errors) {
  if (errors === null || typeof errors !== 'object' || Array.isArray(errors)) return null;
  const fields = Object.entries(errors).filter(([, message]) => typeof message === 'string');
  return fields.length > 0 ? Object.fromEntries(fields) : null;
}

/**
 * GET a JSON resource under /api/v1. `t` supplies the fallback messages so
 * they are in the user's language. Cookies go along (same origin).
 */
export function getJSON(path, { t, fetchImpl = globalThis.fetch, signal } = {}) {
  return requestJSON('GET', path, undefined, { t, fetchImpl, signal });
}

/**
 * POST/PATCH/DELETE a JSON body to /api/v1. The browser adds the page's
 * Origin itself, which the hub checks for cookie-authenticated changes.
 */
export function sendJSON(method, path, body, { t, fetchImpl = globalThis.fetch, signal } = {}) {
  return requestJSON(method, path, body, { t, fetchImpl, signal });
}

async function requestJSON(method, path, body, { t, fetchImpl, signal }) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetchImpl(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw new HubProblem(t('errors.unreachable'));
  }
  learnHubTime(response.headers?.get?.('Hearth-Time'));
  if (!response.ok) {
    let problem = null;
    try {
      problem = await response.json();
    } catch {
      // not JSON (e.g. a proxy's HTML page): use the generic message below
    }
    throw new HubProblem(problemMessage(problem) ?? t('errors.status', { status: response.status }), {
      status: response.status,
      type: problem?.type ?? null,
      retryAfter: retryAfterSeconds(response.headers?.get?.('Retry-After')),
      errors: fieldErrors(problem?.errors),
      body: problem !== null && typeof problem === 'object' ? problem : null,
    });
  }
  if (response.status === 204) return null;
  try {
    return await response.json();
  } catch (error) {
    // Cancelled while the body was arriving (a newer request replaced it):
    // that is the caller's doing, not an answer the page cannot read.
    if (error?.name === 'AbortError') throw error;
    throw new HubProblem(t('errors.badResponse'), { status: response.status });
  }
}
