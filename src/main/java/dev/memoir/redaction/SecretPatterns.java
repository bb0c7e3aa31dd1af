package dev.memoir.redaction;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where secrets are in a text. Written here rather than taken from a library: the maintained secret scanners
 * (gitleaks, trufflehog, detect-secrets) are Go or Python programs, not Java libraries, and their rule sets aim at
 * repositories; these are the forms a person pastes into a chat. Each finding is the span to mask.
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

    private SecretPatterns() {}

    /** The secrets in the text, in order, not overlapping; the classes asked for only. */
    static List<Finding> find(String text, boolean secrets, boolean cards) {
        List<Finding> found = new ArrayList<>();
        if (secrets) {
            all(PRIVATE_KEY.matcher(text), 0, SecretClass.PRIVATE_KEY, found);
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
        if (cards) {
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
        found.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return found;
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
