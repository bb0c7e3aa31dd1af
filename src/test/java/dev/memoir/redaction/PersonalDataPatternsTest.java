package dev.memoir.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** IBANs, e-mail addresses and phone numbers: found where a person writes them, not in ordinary technical text. */
class PersonalDataPatternsTest {

    private static List<String> found(String text, SecretClass kind) {
        return SecretPatterns.find(text, EnumSet.of(kind), "US").stream()
                .map(f -> text.substring(f.start(), f.end()))
                .toList();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Pay to DE89 3704 0044 0532 0130 00 please",
                "IBAN: GB82WEST12345698765432",
                "my account FR14 2004 1010 0505 0001 3M02 606 EUR",
                "NL91ABNA0417164300.",
            })
    void anIbanWithItsCountrysLengthAndCheckDigitsIsFound(String text) {
        assertThat(found(text, SecretClass.IBAN)).singleElement().asString().matches("[A-Z]{2}\\d{2}[A-Z0-9 ]+");
        assertThat(found(text, SecretClass.IBAN).getFirst()).doesNotEndWith(" ").doesNotContain("EUR");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "DE89 3704 0044 0532 0130 01", // check digits do not hold
                "DE89 3704 0044 0532 013", // too short for Germany
                "XX89 3704 0044 0532 0130 00", // no such country
                "SHA256 ABCDEF0123456789ABCDEF",
                "ID AB12CDEF34567890XYZ",
            })
    void aStringThatOnlyLooksLikeAnIbanIsNot(String text) {
        assertThat(found(text, SecretClass.IBAN)).isEmpty();
    }

    @Test
    void theIbanCheckIsIsoMod97() {
        assertThat(SecretPatterns.mod97("GB82WEST12345698765432")).isEqualTo(1);
        assertThat(SecretPatterns.mod97("GB83WEST12345698765432")).isNotEqualTo(1);
    }

    @Test
    void anEmailAddressIsFoundWhole() {
        assertThat(found("write to ada.lovelace+memo@mail.example.co.uk, thanks", SecretClass.EMAIL))
                .containsExactly("ada.lovelace+memo@mail.example.co.uk");
        assertThat(found("git@github.com:org/repo.git and @decorator and a@b", SecretClass.EMAIL))
                .containsExactly("git@github.com");
        assertThat(found("npm i @scope/pkg@1.2.3", SecretClass.EMAIL)).isEmpty();
    }

    @Test
    void aValidPhoneNumberIsFoundAndVersionsDatesAndIdsAreNot() {
        assertThat(found("call me at +44 20 7946 0958 tonight", SecretClass.PHONE))
                .containsExactly("+44 20 7946 0958");
        assertThat(found("office: (415) 555-2671", SecretClass.PHONE)).containsExactly("(415) 555-2671");
        assertThat(found("upgrade to 3.11.7 on 2026-12-07, order 12345678, port 8080", SecretClass.PHONE))
                .isEmpty();
        assertThat(found("bytes 3025550172 written, Order #2125551234 took 4155552671 ms", SecretClass.PHONE))
                .as("bare digit runs that are valid US numbers")
                .isEmpty();
    }

    @Test
    void aCardNumberIsACardNotAPhone() {
        List<SecretPatterns.Finding> found = SecretPatterns.find(
                "card 4111 1111 1111 1111", EnumSet.of(SecretClass.PAYMENT_CARD, SecretClass.PHONE), "US");
        assertThat(found)
                .singleElement()
                .extracting(SecretPatterns.Finding::kind)
                .isEqualTo(SecretClass.PAYMENT_CARD);
    }

    @Test
    void textsBuiltToBacktrackAreSearchedAtOnce() {
        int length = 32_000;
        List<String> hostile = List.of(
                "a@" + "aa.".repeat(length / 3) + "1",
                "a".repeat(length) + "@",
                "4".repeat(length),
                "4 ".repeat(length / 2),
                "DE89 ".repeat(length / 5),
                "+1 ".repeat(length / 3),
                "(415) 555-".repeat(length / 10),
                "password: ".repeat(length / 10),
                "-----BEGIN PRIVATE KEY-----".repeat(length / 27));
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
            for (String text : hostile) {
                SecretPatterns.find(text, EnumSet.allOf(SecretClass.class), "US");
            }
        });
    }
}
