package dev.memoir.redaction;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.i18n.phonenumbers.PhoneNumberMatch;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.PhoneNumberUtil.Leniency;

/**
 * Where secrets and personal data are in a text. Secrets are found by patterns written here rather than taken from a
 * library: the maintained secret scanners (gitleaks, trufflehog, detect-secrets) are Go or Python programs, not Java
 * libraries, and their rule sets aim at repositories; these are the forms a person pastes into a chat. Phone numbers
 * are found by Google's libphonenumber, the maintained reference for what a valid number is in each country (a
 * pattern would take every version number, date and id for one). IBANs are checked as ISO 13616 defines them (the
 * country's length, mod 97), which is a few lines; e-mail addresses by a pattern. Each finding is the span to mask.
 */
final class SecretPatterns {

    record Finding(int start, int end, SecretClass kind) {}

    private static final Pattern PRIVATE_KEY = Pattern.compile(
            "-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\\z)");

    // Provider tokens by their prefixes, bearer tokens and JWTs.
    private static final Pattern TOKEN = Pattern.compile(String.join(
            "|",
            "\\bsk-(?:proj-|ant-[a-z0-9]{2,8}-|or-v1-)?[A-Za-z0-9_-]{20,}",
            "\\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}",
            "\\bgithub_pat_[A-Za-z0-9_]{40,}",
            "\\bglpat-[A-Za-z0-9_-]{20,}",
            "\\bxox[abposr]-[A-Za-z0-9-]{10,}",
            "\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b",
            "\\bAIza[0-9A-Za-z_-]{35}",
            "\\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}",
            "\\bhf_[A-Za-z0-9]{30,}",
            "\\bmk_[A-Za-z0-9_-]{24,}",
            "\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}",
            "(?i)(?<=\\bbearer\\s)[A-Za-z0-9._~+/-]{20,}=*"));

    // "password: hunter2!", "api_key=..." : the value after a name that says it is secret.
    private static final Pattern NAMED = Pattern.compile(
            "(?i)\\b(?:api[_ -]?key|secret(?:[_ -]?key)?|access[_ -]?token|auth[_ -]?token|password|passwd|pwd)"
                    + "\\s*(?:is\\s*)?[:=]\\s*[\"']?(?!\\[)([^\\s\"',;\\[\\](){}`<>]{6,}+)(?![\\[(])");

    // What code and docs write where a secret goes ("YOUR_API_KEY_HERE", "xoxb-your-token", a call): not a
    // secret, and masking it would change the words of a technical answer for nothing.
    private static final Pattern PLACEHOLDER = Pattern.compile(
            "(?i).*(?:your|example|sample|dummy|placeholder|changeme|xxxx|redacted|<|>|\\$|\\{|\\(|env\\b|environ).*");

    // What code writes after such a name: an environment variable's name, a variable or its path, a keyword.
    private static final Pattern CODE_VALUE = Pattern.compile(
            "[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)+|(?:my|the)_[a-z_]+"
                    + "|[a-z]+(?:_[a-z]+)*_(?:password|secret|key|token)|(?:password|secret|key|token)_[a-z_]+"
                    + "|return|None|null|true|false|undefined|Stored|required|string|String");

    private static final Pattern CARD = Pattern.compile("(?<![\\d.,-])(?:\\d[ -]?){12,18}\\d(?![\\d.,-]?\\d)");

    // Two letters, two check digits, then 11 to 30 letters or digits, in groups of four or not.
    private static final Pattern IBAN = Pattern.compile("(?<![A-Za-z0-9])[A-Z]{2}\\d{2}(?: ?[A-Z0-9]){11,30}");

    // The domain as one run of letters, digits, dots and hyphens, checked after the match: a repeated group of labels
    // made Java's matcher recurse once per label, and a long "a@aa.aa.aa..." overflowed its stack.
    private static final Pattern EMAIL =
            Pattern.compile("(?<![\\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9][A-Za-z0-9.-]{0,252}");
    private static final Pattern EMAIL_DOMAIN =
            Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\\.[A-Za-z0-9-]{1,63})*\\.[A-Za-z]{2,24}");

    // The length of an IBAN in each country that issues them (the SWIFT IBAN registry).
    private static final Map<String, Integer> IBAN_LENGTHS = ibanLengths("""
            AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 EE20
            EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30
            KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24
            PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29
            VA22 VG24 XK20 YE30""");

    private static final PhoneNumberUtil PHONES = PhoneNumberUtil.getInstance();

    private SecretPatterns() {}

    /** The secrets in the text, in order, not overlapping; API keys, private keys and cards, as asked. */
    static List<Finding> find(String text, boolean secrets, boolean cards) {
        Set<SecretClass> wanted = EnumSet.noneOf(SecretClass.class);
        if (secrets) {
            wanted.add(SecretClass.API_KEY);
            wanted.add(SecretClass.PRIVATE_KEY);
        }
        if (cards) {
            wanted.add(SecretClass.PAYMENT_CARD);
        }
        return find(text, wanted, "ZZ");
    }

    /**
     * The findings of the classes wanted, in order, not overlapping: where two overlap, the one of the class listed
     * first in {@link SecretClass} is kept (a card number is not also a phone number).
     *
     * @param phoneRegion the region whose national phone formats count, or {@code ZZ} for international ones alone
     */
    static List<Finding> find(String text, Set<SecretClass> wanted, String phoneRegion) {
        List<Finding> found = new ArrayList<>();
        if (wanted.contains(SecretClass.PRIVATE_KEY)) {
            all(PRIVATE_KEY.matcher(text), 0, SecretClass.PRIVATE_KEY, found);
        }
        if (wanted.contains(SecretClass.API_KEY)) {
            all(TOKEN.matcher(text), 0, SecretClass.API_KEY, found);
            Matcher named = NAMED.matcher(text);
            while (named.find()) {
                if (!CODE_VALUE.matcher(named.group(1)).matches()) {
                    add(new Finding(named.start(1), named.end(1), SecretClass.API_KEY), found);
                }
            }
            found.removeIf(f -> f.kind() == SecretClass.API_KEY
                    && PLACEHOLDER.matcher(text.substring(f.start(), f.end())).matches());
        }
        if (wanted.contains(SecretClass.PAYMENT_CARD)) {
            Matcher card = CARD.matcher(text);
            while (card.find()) {
                String digits = card.group().replaceAll("[ -]", "");
                if (digits.length() >= 13
                        && digits.length() <= 19
                        && luhn(digits)
                        && "3456".indexOf(digits.charAt(0)) >= 0) {
                    add(new Finding(card.start(), card.end(), SecretClass.PAYMENT_CARD), found);
                }
            }
        }
        if (wanted.contains(SecretClass.IBAN)) {
            ibans(text, found);
        }
        if (wanted.contains(SecretClass.EMAIL)) {
            emails(text, found);
        }
        if (wanted.contains(SecretClass.PHONE)) {
            for (PhoneNumberMatch phone : PHONES.findNumbers(text, phoneRegion, Leniency.VALID, Long.MAX_VALUE)) {
                // A bare run of digits ("3025550172 bytes", "order 2125551234") is a count or an id far more often
                // than a number someone wrote to be called: a phone number is written with a + or separators.
                if (!phone.rawString().chars().allMatch(Character::isDigit)) {
                    add(new Finding(phone.start(), phone.end(), SecretClass.PHONE), found);
                }
            }
        }
        found.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return found;
    }

    // A candidate may run on into the next word ("DE89 3704 0044 0532 0130 00 EUR"): the country's length says
    // where the IBAN ends.
    private static void ibans(String text, List<Finding> found) {
        Matcher candidate = IBAN.matcher(text);
        while (candidate.find()) {
            Integer length = IBAN_LENGTHS.get(candidate.group().substring(0, 2));
            if (length == null) {
                continue;
            }
            StringBuilder compact = new StringBuilder(length);
            int end = candidate.start();
            while (end < candidate.end() && compact.length() < length) {
                char c = text.charAt(end++);
                if (c != ' ') {
                    compact.append(c);
                }
            }
            boolean whole = end == candidate.end() || text.charAt(end) == ' ';
            if (compact.length() == length && whole && mod97(compact.toString()) == 1) {
                add(new Finding(candidate.start(), end, SecretClass.IBAN), found);
            }
        }
    }

    // An address ends where its domain's last label of letters does; a trailing dot or hyphen is the sentence's.
    private static void emails(String text, List<Finding> found) {
        Matcher candidate = EMAIL.matcher(text);
        while (candidate.find()) {
            int at = candidate.group().indexOf('@');
            String domain = candidate.group().substring(at + 1);
            int end = domain.length();
            while (end > 0 && (domain.charAt(end - 1) == '.' || domain.charAt(end - 1) == '-')) {
                end--;
            }
            domain = domain.substring(0, end);
            int next = candidate.start() + at + 1 + end;
            boolean whole = next >= text.length() || !Character.isLetterOrDigit(text.charAt(next));
            if (whole
                    && !domain.contains("..")
                    && domain.length() <= 253
                    && EMAIL_DOMAIN.matcher(domain).matches()) {
                add(new Finding(candidate.start(), next, SecretClass.EMAIL), found);
            }
        }
    }

    static int mod97(String iban) {
        String rearranged = iban.substring(4) + iban.substring(0, 4);
        int remainder = 0;
        for (int i = 0; i < rearranged.length(); i++) {
            int value = Character.digit(rearranged.charAt(i), 36);
            remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
        }
        return remainder;
    }

    private static Map<String, Integer> ibanLengths(String registry) {
        Map<String, Integer> lengths = new HashMap<>();
        for (String entry : registry.trim().split("\\s+")) {
            lengths.put(entry.substring(0, 2), Integer.parseInt(entry.substring(2)));
        }
        return Map.copyOf(lengths);
    }

    private static void all(Matcher matcher, int group, SecretClass kind, List<Finding> found) {
        while (matcher.find()) {
            add(new Finding(matcher.start(group), matcher.end(group), kind), found);
        }
    }

    private static void add(Finding finding, List<Finding> found) {
        if (found.stream().noneMatch(f -> f.start() < finding.end() && finding.start() < f.end())) {
            found.add(finding);
        }
    }

    static boolean luhn(String digits) {
        int sum = 0;
        boolean twice = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (twice) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            twice = !twice;
        }
        return sum % 10 == 0;
    }
}
