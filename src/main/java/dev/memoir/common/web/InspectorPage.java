package dev.memoir.common.web;

import java.util.Set;

/**
 * The memory inspector, a static page at /ui that signs in with a tenant key typed into it and reads everything
 * through the API. Its files are public (they hold no data), so they load without a key; every other path, and
 * every other spelling of these (encoded, dotted, with matrix parameters, another case), needs one like any API
 * request. Hence an exact list of raw paths rather than a prefix.
 */
public final class InspectorPage {

    static final String ROOT = "/ui";

    /** Every file in static/ui, by the exact path it is served at (a test keeps the two lists equal). */
    static final Set<String> ASSETS = Set.of(
            "index.html",
            "style.css",
            "icon.svg",
            "app.js",
            "api.js",
            "dom.js",
            "diff.js",
            "chart.js",
            "router.js",
            "users.js",
            "sessions.js",
            "memories.js",
            "reranker.js",
            "webhooks.js",
            "usage.js");

    private InspectorPage() {}

    /**
     * Whether the raw request path (within the application) is the page or one of its files, spelled exactly. The
     * service's root is one too: a person who opens it in a browser is sent to the page, not shown a 401.
     */
    public static boolean isPagePath(String rawPath) {
        if (rawPath.equals("/") || rawPath.equals(ROOT) || rawPath.equals(ROOT + "/")) {
            return true;
        }
        return rawPath.startsWith(ROOT + "/") && ASSETS.contains(rawPath.substring(ROOT.length() + 1));
    }
}
