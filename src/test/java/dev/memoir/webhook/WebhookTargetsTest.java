package dev.memoir.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which addresses a webhook may be delivered to: globally reachable ones, however they are spelt. */
class WebhookTargetsTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "8.8.8.8",
                "1.1.1.1",
                "192.0.1.1",
                "198.20.0.1",
                "2606:4700:4700::1111",
                "64:ff9b::808:808", // NAT64 of 8.8.8.8
                "2002:808:808::1", // 6to4 of 8.8.8.8
                "::ffff:8.8.8.8",
                "2001:0:808:808:8000:63bf:f7f7:f7f7" // Teredo: server and client 8.8.8.8
            })
    void aGloballyReachableAddressIsPublic(String address) throws UnknownHostException {
        assertThat(WebhookTargets.isPublic(InetAddress.getByName(address))).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "0.0.0.0",
                "10.1.2.3",
                "100.64.0.1",
                "127.0.0.1",
                "169.254.169.254",
                "172.16.0.1",
                "192.0.0.192",
                "192.0.2.1",
                "192.88.99.1",
                "192.168.1.1",
                "198.18.0.1",
                "198.51.100.1",
                "203.0.113.1",
                "224.0.0.1",
                "240.0.0.1",
                "255.255.255.255",
                "::",
                "::1",
                "::127.0.0.1",
                "::ffff:10.0.0.1",
                "::ffff:0:a00:1",
                "64:ff9b::a9fe:a9fe",
                "64:ff9b:1::808:808",
                "2002:a9fe:a9fe::1",
                "2002:a00:1::1",
                "2001:0:4136:e378:8000:63bf:80ff:fffe",
                "2001:0:a00:1:8000:63bf:f7f7:f7f7",
                "2001:2::1",
                "2001:db8::1",
                "100::1",
                "fc00::1",
                "fd12:3456::1",
                "fe80::1",
                "fec0::1",
                "ff02::1"
            })
    void anAddressThatIsNotGloballyReachableIsNotPublicHoweverItIsSpelt(String address) throws UnknownHostException {
        assertThat(WebhookTargets.isPublic(InetAddress.getByName(address))).isFalse();
    }
}
