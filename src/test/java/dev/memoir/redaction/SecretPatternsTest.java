package dev.memoir.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretPatternsTest {

    private static List<SecretClass> classes(String text) {
        return SecretPatterns.find(text, true, true).stream()
                .map(SecretPatterns.Finding::kind)
                .toList();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "my key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345",
                "export OPENAI_API_KEY=sk-AbCdEfGhIjKlMnOpQrStUvWx",
                "anthropic: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx",
                "token ghp_0123456789abcdefghijABCDEFGHIJ012345",
                "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH",
                "gitlab glpat-abcdefghij0123456789",
                "slack xoxb-123456789012-abcdefghijkl",
                "aws AKIA2OGYBAH6Q4XMRTZK and more",
                "google AIzaSyA-abcdefghijklmnopqrstuvwxyz12345",
                "stripe sk_live_abcdefghijklmnop1234",
                "hf_abcdefghijklmnopqrstuvwxyz01234567",
                "Authorization: Bearer abcdefghijklmnopqrstuvwxyz.0123456789",
                "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
                "my password: hunter2!x",
                "api_key = 'q8Zr!p0wL'",
                "the secret key is: 9f8e7d6c5b4a",
            })
    void aSecretIsFound(String text) {
        assertThat(classes(text)).containsExactly(SecretClass.API_KEY);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "card 4111 1111 1111 1111 exp 12/29",
                "4242424242424242",
                "amex 3782-822463-10005",
                "mastercard 5555555555554444.",
            })
    void aCardThatPassesLuhnIsFound(String text) {
        assertThat(classes(text)).containsExactly(SecretClass.PAYMENT_CARD);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (cut off)",
            })
    void aPrivateKeyBlockIsFound(String text) {
        assertThat(classes(text)).containsExactly(SecretClass.PRIVATE_KEY);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "I moved to Porto in 2019 and my phone ends in 4471.",
                "Order 4111 1111 1111 1112 is not a card: it fails Luhn.",
                "The build took 1234567890123 ms on commit 9f8e7d6c5b4a3f2e1d0c.",
                "Use the skeleton sk-learn pipeline with 20 estimators.",
                "My password manager is great; the password: field was empty.",
                "Timestamps like 2024-05-01T10:00:00Z and 1714557600000 are fine.",
                "She scored 4 1 1 1 points.",
                "Bearer bonds are an old instrument.",
                "A masked one stays masked: password: [api-key #1f0c9a3e]",
                "ISBN 978-3-16-148410-0 and version 1.2.3.4.5.6.7.8.9.10",
                "const client = new Client({ apiKey = 'YOUR_API_KEY_HERE' });",
                "password = request.form['password']",
                "const token = process.env.API_TOKEN; api_key: os.environ['KEY']",
                "SLACK_TOKEN=xoxb-your-slack-token",
                "if check(password: hashed_password) return None",
                "headers = {'Authorization': 'Bearer ' + access_token}",
            })
    void ordinaryTextIsLeftAlone(String text) {
        assertThat(classes(text)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"4111111111111111", "79927398713", "0"})
    void luhnHoldsForValidNumbers(String digits) {
        assertThat(SecretPatterns.luhn(digits)).isTrue();
    }
}
