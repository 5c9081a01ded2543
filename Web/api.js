// Calls to the hub's JSON API. Failures become a HubProblem carrying the
// sentence to show the user: the problem+json `detail`, else its `title`,
// else a translated generic message, so a page never crashes on an error.

export class HubProblem extends Error {
  constructor(message, { status = 0, type = null } = {}) {
    super(message);
    this.name = 'HubProblem';
    this.status = status;
    this.type = type;
  }
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

/**
 * GET a JSON resource under /api/v1. `t` supplies the fallback messages so
 * they are in the user's language. Cookies go along (same origin).
 */
export async function getJSON(path, { t, fetchImpl = globalThis.fetch, signal } = {}) {
  let response;
  try {
    response = await fetchImpl(`/api/v1${path}`, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw new HubProblem(t('errors.unreachable'));
  }
  if (!response.ok) {
    let body = null;
    try {
      body = await response.json();
    } catch {
      // not JSON (e.g. a proxy's HTML page): use the generic message below
    }
    throw new HubProblem(problemMessage(body) ?? t('errors.status', { status: response.status }), {
      status: response.status,
      type: body?.type ?? null,
    });
  }
  try {
    return await response.json();
  } catch {
    throw new HubProblem(t('errors.badResponse'), { status: response.status });
  }
}
