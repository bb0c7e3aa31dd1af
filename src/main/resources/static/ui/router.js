// Hash routes (#/users/alice/memories/…): the page never reloads, and nothing of a route reaches the server.
let renderer = async () => {};

export function setRenderer(render) {
  renderer = render;
  window.addEventListener('hashchange', () => renderer());
}

/** Goes to a route and resolves once it is drawn, so that a message shown afterwards stays. */
export async function navigate(hash) {
  if (location.hash !== hash) {
    history.pushState(null, '', hash);
  }
  await renderer();
}

/** The route's parts, decoded: "#/users/a%2Fb/sessions" is ["users", "a/b", "sessions"]; null for other anchors. */
export function routeParts() {
  const hash = location.hash;
  if (hash && !hash.startsWith('#/')) {
    return null;
  }
  try {
    return hash.slice(2).split('/').filter(Boolean).map(decodeURIComponent);
  } catch (e) {
    return [];
  }
}

/** A route's hash from its parts, each encoded. */
export function route(...parts) {
  return '#/' + parts.map((p) => encodeURIComponent(String(p))).join('/');
}
