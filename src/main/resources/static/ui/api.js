// Every call goes to the service's public API with the tenant key as a bearer token. The key lives in
// sessionStorage: it is gone when the tab closes and never appears in a URL.

const KEY_ITEM = 'memoir.apiKey';
// The page is served at <service>/ui/, the API at <service>/.
const BASE = new URL('../', import.meta.url);

export function storedKey() {
  return sessionStorage.getItem(KEY_ITEM);
}

export function rememberKey(key) {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_ITEM);
}

/** An API answer that was not a success: its status and its problem document (RFC 9457), when it had one. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(describe(status, problem));
    this.status = status;
    this.problem = problem;
  }
}

function describe(status, problem) {
  if (problem && typeof problem.detail === 'string' && problem.detail) {
    return `${problem.detail} (${status})`;
  }
  if (problem && typeof problem.title === 'string' && problem.title) {
    return `${problem.title} (${status})`;
  }
  return status === 0 ? 'The service could not be reached' : `The service answered ${status}`;
}

/**
 * Calls the API. `query` values may be arrays (repeated parameters); null and empty values are left out.
 * Answers the parsed JSON, or null for 204.
 */
export async function call(method, path, { query, body, key } = {}) {
  const url = new URL(path.replace(/^\//, ''), BASE);
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== null && one !== undefined && one !== '') {
        url.searchParams.append(name, String(one));
      }
    }
  }
  const headers = { Accept: 'application/json', Authorization: `Bearer ${key ?? storedKey() ?? ''}` };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
    });
  } catch (e) {
    throw new ApiError(0, null);
  }
  if (response.status === 204) {
    return null;
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    json = null;
  }
  if (!response.ok) {
    if (response.status === 401 && key === undefined) {
      // The stored key stopped working (revoked or rotated): the page signs out and says so.
      window.dispatchEvent(new CustomEvent('memoir:unauthorized'));
    }
    throw new ApiError(response.status, json);
  }
  return json;
}

export const get = (path, query) => call('GET', path, { query });

/** Path segments are always encoded: ids come from data. */
export function path(...segments) {
  return '/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
}
