package dev.memoir.webhook;

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
 * that resolves to globally reachable addresses only: no loopback, private (RFC 1918, IPv6 unique local,
 * carrier-grade NAT), link-local (where cloud metadata services answer, 169.254.169.254), unspecified, multicast,
 * documentation, benchmarking or otherwise special-purpose address, and an IPv6 address that carries an IPv4 address
 * (mapped, translated, compatible, NAT64, 6to4, Teredo) is judged by the IPv4 address. The operator
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
                return "resolves to an address that is not public (loopback, private, link-local, metadata or another "
                        + "special-purpose address: " + address.getHostAddress()
                        + "), which Memoir does not deliver to";
            }
        }
        return null;
    }

    static boolean isPublic(InetAddress address) {
        byte[] b = address.getAddress();
        return b.length == 4 ? isPublicV4(b) : isPublicV6(b);
    }

    /**
     * Whether an IPv4 address is globally reachable: not in any of IANA's special-purpose ranges that are not (this
     * network, private, carrier-grade NAT, loopback, link-local, IETF protocol assignments, documentation,
     * benchmarking, multicast, reserved, broadcast, the deprecated 6to4 relay anycast).
     */
    private static boolean isPublicV4(byte[] b) {
        int a = b[0] & 0xff;
        int s = b[1] & 0xff;
        int t = b[2] & 0xff;
        return a != 0 // "this network"
                && a != 10
                && !(a == 100 && s >= 64 && s < 128) // carrier-grade NAT
                && a != 127
                && !(a == 169 && s == 254) // link-local, cloud metadata
                && !(a == 172 && s >= 16 && s < 32)
                && !(a == 192 && s == 0 && t == 0) // IETF protocol assignments, 192.0.0.0/24
                && !(a == 192 && s == 0 && t == 2) // TEST-NET-1
                && !(a == 192 && s == 88 && t == 99) // 6to4 relay anycast
                && !(a == 192 && s == 168)
                && !(a == 198 && (s == 18 || s == 19)) // benchmarking
                && !(a == 198 && s == 51 && t == 100) // TEST-NET-2
                && !(a == 203 && s == 0 && t == 113) // TEST-NET-3
                && a < 224; // multicast, reserved, broadcast
    }

    /**
     * Whether an IPv6 address is globally reachable. Every form that carries an IPv4 address is judged by that address
     * (two for Teredo: its server's and, obfuscated, its client's): mapped {@code ::ffff:0:0/96}, translated
     * {@code ::ffff:0:0:0/96}, compatible {@code ::/96}, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16} and Teredo
     * {@code 2001::/32}. Loopback, unspecified, unique local, link-local, site-local, multicast, discard-only,
     * documentation, local-use NAT64 and the rest of the IETF protocol assignments are refused.
     */
    private static boolean isPublicV6(byte[] b) {
        if (zeros(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return isPublicV4(slice(b, 12)); // mapped
        }
        if (zeros(b, 0, 8) && (b[8] & 0xff) == 0xff && (b[9] & 0xff) == 0xff && zeros(b, 10, 12)) {
            return isPublicV4(slice(b, 12)); // translated (SIIT)
        }
        if (zeros(b, 0, 12)) {
            return isPublicV4(slice(b, 12)); // compatible; :: and ::1 are 0.0.0.0 and 0.0.0.1, refused
        }
        int first = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
        int second = ((b[2] & 0xff) << 8) | (b[3] & 0xff);
        if (first == 0x0064 && second == 0xff9b) {
            // NAT64: the well-known prefix carries the IPv4 address last; 64:ff9b:1::/48 is for local use.
            return zeros(b, 4, 12) && isPublicV4(slice(b, 12));
        }
        if (first == 0x2002) {
            return isPublicV4(slice(b, 2)); // 6to4
        }
        if (first == 0x2001 && second == 0x0000) {
            byte[] client = slice(b, 12);
            for (int i = 0; i < 4; i++) {
                client[i] = (byte) ~client[i];
            }
            return isPublicV4(slice(b, 4)) && isPublicV4(client); // Teredo
        }
        if (first == 0x2001 && second < 0x0200) {
            return false; // the rest of the IETF protocol assignments, 2001::/23
        }
        if (first == 0x2001 && second == 0x0db8) {
            return false; // documentation
        }
        if (first == 0x0100 && zeros(b, 2, 8)) {
            return false; // discard-only, 100::/64
        }
        return (b[0] & 0xfe) != 0xfc // unique local, fc00::/7
                && !((b[0] & 0xff) == 0xfe && (b[1] & 0x80) == 0x80) // link-local and site-local, fe80::/9 and up
                && (b[0] & 0xff) != 0xff; // multicast
    }

    private static boolean zeros(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] slice(byte[] b, int from) {
        return new byte[] {b[from], b[from + 1], b[from + 2], b[from + 3]};
    }
}
