package dev.memoir.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.stereotype.Component;

/**
 * Which URLs Memoir delivers to (server-side request forgery): http or https only, without credentials, to a host
 * that resolves to public addresses only: no loopback, private (RFC 1918, IPv6 unique local, carrier-grade NAT),
 * link-local (where cloud metadata services answer, 169.254.169.254), unspecified or multicast address. The operator
 * may allow hosts by name ({@code memoir.webhooks.allowed-hosts}). Checked when an endpoint is registered and again
 * before each delivery, since what a name resolves to may change.
 *
 * <p>The connection is not pinned to the addresses checked (DNS rebinding): {@code HttpClient} resolves the host
 * itself and takes no resolver or address per request, and connecting to the address would need a {@code Host}
 * header it refuses unless allowed JVM-wide, and would break SNI and the certificate's name check for https. Both
 * resolve through the JVM's address cache, which keeps a successful lookup for 30 s whatever the record's TTL, and
 * the client connects right after the check, so a name re-pointed within that entry is not asked again.
 */
@Component
class WebhookTargets {

    private final Set<String> allowedHosts;

    WebhookTargets(WebhookProperties properties) {
        this.allowedHosts = properties.allowedHosts().stream()
                .map(h -> h.toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Why Memoir does not deliver to the URL, or null when it does. */
    String problem(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return "is not a URL";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return "must be an http or https URL";
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            return "has no host";
        }
        if (uri.getRawUserInfo() != null) {
            return "must not carry credentials";
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (allowedHosts.contains(host)) {
            return null;
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            return "names a host that cannot be resolved";
        }
        for (InetAddress address : addresses) {
            if (!isPublic(address)) {
                return "resolves to a loopback, private, link-local or metadata address (" + address.getHostAddress()
                        + "), which Memoir does not deliver to";
            }
        }
        return null;
    }

    static boolean isPublic(InetAddress address) {
        if (address.isLoopbackAddress()
                || address.isSiteLocalAddress()
                || address.isLinkLocalAddress()
                || address.isAnyLocalAddress()
                || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            // 0.0.0.0/8, carrier-grade NAT 100.64.0.0/10, benchmarking 198.18.0.0/15, reserved 240.0.0.0/4
            return first != 0
                    && !(first == 100 && second >= 64 && second < 128)
                    && !(first == 198 && (second == 18 || second == 19))
                    && first < 240;
        }
        if (address instanceof Inet6Address) {
            // Unique local fc00::/7, and IPv4 addresses mapped or translated into IPv6 judged as IPv4
            if ((b[0] & 0xfe) == 0xfc) {
                return false;
            }
            boolean mapped = true;
            for (int i = 0; i < 10; i++) {
                mapped &= b[i] == 0;
            }
            if (mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                try {
                    return isPublic(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
                } catch (UnknownHostException e) {
                    return false;
                }
            }
        }
        return true;
    }
}
