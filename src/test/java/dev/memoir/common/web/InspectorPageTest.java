package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import dev.memoir.support.Api;
import dev.memoir.support.Browser;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * The memory inspector in a real headless Chromium, against the running service: every test signs in with a key
 * of its own tenant, seeded through the API, and works the page as a person would, by its labels and buttons.
 */
class InspectorPageTest extends IntegrationTest {

    private static final String HISTORY_ONLY = "{\"write\": [\"history\"], \"read\": [\"history\"]}";

    private static Browser browser;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @AfterEach
    void noScriptErrorsAndTheLaptopWindowAgain() {
        browser.resize(Browser.LAPTOP);
        assertThat(browser.consoleErrors()).as("console errors").isEmpty();
    }

    private String page() {
        return "http://localhost:" + api.port() + "/ui/";
    }

    /** Opens the page signed out and signs in by typing the key into the field labelled "API key". */
    private void signIn(String key) {
        openSignedOut();
        WebElement field = browser.driver().findElement(By.xpath("//label[text()='API key']/following::input[1]"));
        assertThat(field.getAttribute("id"))
                .isEqualTo(browser.driver()
                        .findElement(By.xpath("//label[text()='API key']"))
                        .getAttribute("for"));
        field.sendKeys(key, Keys.ENTER);
        browser.visible(By.id("workspace"));
        browser.visible(By.cssSelector("#user-results .user-list, #user-results p.meta"));
    }

    private void openSignedOut() {
        browser.get(page());
        browser.script("sessionStorage.clear()");
        browser.get(page());
        browser.visible(By.id("api-key"));
    }

    private void go(String hash) {
        browser.get(page() + hash);
    }

    private static String route(String... parts) {
        StringBuilder hash = new StringBuilder("#");
        for (String part : parts) {
            hash.append('/')
                    .append(URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return hash.toString();
    }

    private WebElement view() {
        return browser.driver().findElement(By.id("view"));
    }

    private WebElement button(String label) {
        return browser.clickable(By.xpath("//button[normalize-space()=" + xpathLiteral(label) + "]"));
    }

    private static String xpathLiteral(String text) {
        return text.contains("'") ? "\"" + text + "\"" : "'" + text + "'";
    }

    private WebElement dialog() {
        return browser.visible(By.cssSelector("dialog[open]"));
    }

    private String notice() {
        return browser.visible(By.id("notice")).getText();
    }

    @Test
    void aWrongKeyIsRefusedWithAnErrorAndNothingIsShown() {
        openSignedOut();

        browser.driver().findElement(By.id("api-key")).sendKeys("mk_not-a-real-key");
        button("Sign in").click();

        WebElement error = browser.visible(By.id("sign-in-error"));
        assertThat(error.getText()).contains("not accepted").contains("401");
        assertThat(browser.driver().findElement(By.id("workspace")).isDisplayed())
                .isFalse();
        assertThat(browser.script("return sessionStorage.getItem('memoir.apiKey')"))
                .isNull();
        assertThat(browser.driver().getCurrentUrl()).doesNotContain("mk_");
    }

    @Test
    void aKeyRevokedWhileSignedInSendsThePageBackToSignIn() {
        Api.Response tenant = api.createTenant("revoked-" + tag);
        String key = tenant.text("apiKey");
        String tenantId = tenant.text("id");
        api.addFact(key, "yara-" + tag, "The user collects stamps.");
        signIn(key);
        browser.visible(By.cssSelector(".user-list a[data-user='yara-" + tag + "']"));
        String keyId = items(api.get(Api.BOOTSTRAP_KEY, "/admin/tenants/" + tenantId + "/keys"))
                .getFirst()
                .path("id")
                .asString();
        assertThat(api.send("DELETE", "/admin/tenants/" + tenantId + "/keys/" + keyId, Api.BOOTSTRAP_KEY, null)
                        .status())
                .isEqualTo(200);

        browser.clickable(By.cssSelector(".user-list a[data-user='yara-" + tag + "']"))
                .click();

        assertThat(browser.visible(By.id("sign-in-error")).getText()).contains("no longer accepted");
        assertThat(browser.driver().findElement(By.id("workspace")).isDisplayed())
                .isFalse();
        assertThat(browser.script("return sessionStorage.getItem('memoir.apiKey')"))
                .isNull();
        assertThat(browser.driver().findElement(By.id("view")).getText()).isEmpty();
    }

    @Test
    void signingInListsTheTenantsUsersFindsOneAndLoadsNothingFromElsewhere() {
        String key = api.newTenant();
        for (String name : List.of("ana", "bruno", "carla")) {
            api.addFact(key, name + "-" + tag, name + " likes tea " + tag);
        }

        signIn(key);

        browser.until(
                d -> d.findElements(By.cssSelector(".user-list a[data-user]")).size() == 3);
        assertThat(browser.driver().getCurrentUrl()).doesNotContain(key);
        assertThat(browser.script("return sessionStorage.getItem('memoir.apiKey')"))
                .isEqualTo(key);
        WebElement find = browser.driver().findElement(By.xpath("//label[text()='Find a user']/following::input[1]"));
        find.sendKeys("BRUN", Keys.ENTER);
        browser.until(
                d -> d.findElements(By.cssSelector(".user-list a[data-user]")).size() == 1);
        browser.clickable(By.cssSelector(".user-list a[data-user='bruno-" + tag + "']"))
                .click();

        browser.until(ExpectedConditions.textToBe(By.id("view-title"), "bruno-" + tag));
        browser.until(ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector(".memory-text"), "bruno likes tea " + tag));
        assertThat(view().getText()).contains("1 memory");
        @SuppressWarnings("unchecked")
        List<String> loaded =
                (List<String>) browser.script("return performance.getEntriesByType('resource').map(e => e.name)");
        assertThat(loaded)
                .isNotEmpty()
                .allSatisfy(url -> assertThat(url).startsWith("http://localhost:" + api.port() + "/"));
    }

    @Test
    void anImportedConversationShowsWhenItWasSaidBeforeWhenItWasStored() {
        String key = api.newTenant();
        String user = "march-" + tag;
        String session = api.newSession(key, user, HISTORY_ONLY);
        assertThat(api.send("POST", "/sessions/" + session + "/turns", key, """
                {"turns": [
                  {"role": "user", "content": "We planted the tomatoes today.", "occurredAt": "2023-03-14T10:00:00Z"},
                  {"role": "assistant", "content": "Lovely, which variety?", "occurredAt": "2023-03-14T10:01:00Z"}
                ]}""").status())
                .isEqualTo(201);
        String said = "2023";
        String stored = String.valueOf(Year.now(ZoneOffset.UTC).getValue());

        signIn(key);
        WebElement userEntry = browser.visible(By.cssSelector(".user-list a[data-user='" + user + "']"));
        assertThat(userEntry.getText()).contains(said).doesNotContain(stored);
        userEntry.click();
        WebElement memory = browser.visible(By.cssSelector("li[data-memory] .card-title"));
        assertThat(memory.findElement(By.cssSelector("[data-time='dialogue']")).getText())
                .contains(said);
        assertThat(memory.findElement(By.cssSelector("[data-time='stored']")).getText())
                .contains("stored")
                .contains(stored);

        go(route("users", user, "sessions"));
        WebElement listed = browser.visible(By.cssSelector("li[data-session='" + session + "']"));
        assertThat(listed.findElement(By.cssSelector("[data-time='dialogue']")).getText())
                .startsWith("Session of")
                .contains(said);
        assertThat(listed.findElement(By.cssSelector("[data-time='stored']")).getText())
                .contains("stored ")
                .contains(stored);
        listed.findElement(By.cssSelector("[data-time='dialogue']")).click();
        assertThat(browser.visible(By.id("session-title")).getText())
                .startsWith("Session of")
                .contains(said);
    }

    @Test
    void aMemoryShowsTheTurnsItRestsOnAndItsRevisionsAsADiff() {
        String key = api.newTenant();
        String user = "ines-" + tag;
        String session = api.newSession(key, user, HISTORY_ONLY);
        api.importTurns(key, session, "I moved to Porto in March for a new job.", "Congratulations on the move!");
        JsonNode memory = items(api.get(key, "/memory?userId=" + user + "&kind=history")).stream()
                .filter(m -> m.path("text").asString().contains("Porto"))
                .findFirst()
                .orElseThrow();
        String memoryId = memory.path("id").asString();
        assertThat(api.send(
                                "PATCH",
                                "/memory/" + memoryId,
                                key,
                                "{\"text\": \"User: I moved to Lisbon in March for a new job.\"}")
                        .status())
                .isEqualTo(200);
        api.addFact(key, "hugo-" + tag, "The user is learning Portuguese.");
        api.addFact(key, "joana-" + tag, "The user runs a small bakery.");

        signIn(key);
        browser.clickable(By.cssSelector(".user-list a[data-user='" + user + "']"))
                .click();
        browser.clickable(By.cssSelector("li[data-memory='" + memoryId + "'] .card-title a"))
                .click();

        WebElement provenance = browser.visible(By.cssSelector(".provenance-turns"));
        assertThat(provenance.getText())
                .contains("I moved to Porto in March for a new job.")
                .contains("user");
        WebElement latest = browser.visible(By.cssSelector(".revisions li[data-version='2']"));
        assertThat(latest.getText()).contains("Version 2").contains("edit");
        assertThat(latest.findElement(By.cssSelector(".diff del")).getText()).contains("Porto");
        assertThat(latest.findElement(By.cssSelector(".diff ins")).getText()).contains("Lisbon");
        assertThat(browser.driver()
                        .findElement(By.cssSelector(".revisions li[data-version='1']"))
                        .getText())
                .contains("User: I moved to Porto in March");
        String screenshot = System.getProperty("memoir.inspector.screenshot");
        if (screenshot != null) {
            browser.resize(new Dimension(1280, 1200));
            browser.screenshot(Path.of(screenshot));
        }

        provenance.findElement(By.cssSelector("a")).click();
        WebElement turn = browser.visible(By.cssSelector("li.turn.highlight"));
        assertThat(turn.getText()).contains("I moved to Porto in March");
        assertThat(browser.driver().switchTo().activeElement().getAttribute("id"))
                .isEqualTo(turn.getAttribute("id"));
    }

    @Test
    void aSupersededMemoryIsListedOnlyOnRequestAndShowsItsChainBothWays() {
        String key = api.newTenant();
        String user = "vera-" + tag;
        String paris = api.addFact(
                key, user, "Vera lives in Paris.", "occurredAt", "2024-01-01T00:00:00Z", "supersedes", List.of());
        String berlin = api.addFact(
                key, user, "Vera moved to Berlin.", "occurredAt", "2024-06-01T00:00:00Z", "supersedes", List.of(paris));

        signIn(key);
        browser.clickable(By.cssSelector(".user-list a[data-user='" + user + "']"))
                .click();
        browser.visible(By.cssSelector("li[data-memory='" + berlin + "']"));
        assertThat(browser.driver().findElements(By.cssSelector("li[data-memory='" + paris + "']")))
                .isEmpty();
        browser.clickable(By.id("include-superseded")).click();
        WebElement old = browser.visible(By.cssSelector("li[data-memory='" + paris + "']"));
        assertThat(old.findElement(By.cssSelector("[data-superseded]")).getText())
                .isEqualTo("superseded");

        old.findElement(By.cssSelector(".card-title a")).click();
        WebElement successor = browser.clickable(By.cssSelector("a[data-chain='" + berlin + "']"));
        assertThat(view().getText()).contains("Superseded by").contains("Valid until");
        successor.click();
        browser.visible(By.cssSelector("a[data-chain='" + paris + "']"));
        assertThat(view().getText()).contains("Vera moved to Berlin.").contains("Supersedes");
    }

    @Test
    void searchShowsTheHybridRankingWithItsDenseAndLexicalParts() {
        String key = api.newTenant();
        String user = "olga-" + tag;
        api.addFact(key, user, "The user's cat is called Miso and sleeps on the piano.");
        api.addFact(key, user, "The user works night shifts as a nurse in Porto.");
        api.addFact(key, user, "The user goes hiking in the mountains every summer.");
        JsonNode best = items(api.get(key, "/memory?userId=" + user + "&query=cat%20Miso&explain=true"))
                .getFirst();

        signIn(key);
        go(route("users", user, "search"));
        WebElement query = browser.visible(By.xpath("//label[text()='Search memories']/following::input[1]"));
        query.sendKeys("cat Miso", Keys.ENTER);

        WebElement first = browser.visible(By.cssSelector(".search-results > li:first-child"));
        assertThat(first.findElement(By.cssSelector(".memory-text")).getText())
                .isEqualTo(best.path("text").asString());
        JsonNode why = best.path("explanation");
        assertThat(first.findElement(By.cssSelector(".part.dense")).getText())
                .contains("rank " + why.path("denseRank").asInt());
        assertThat(first.findElement(By.cssSelector(".part.lexical")).getText())
                .contains("rank " + why.path("lexicalRank").asInt());
        assertThat(first.findElement(By.cssSelector(".part.fused")).getText())
                .contains(String.format(
                        Locale.ROOT, "%.4f", why.path("fusedScore").asDouble()));
        assertThat(browser.driver().findElements(By.cssSelector(".search-results > li")))
                .hasSize(3);
    }

    @Test
    void editingAMemoryMakesANewVersionKeptAsARevision() {
        String key = api.newTenant();
        String user = "pia-" + tag;
        String memoryId = api.addFact(key, user, "The user drinks coffee black.");

        signIn(key);
        go(route("users", user, "memories", memoryId));
        button("Edit").click();
        WebElement text = browser.visible(By.xpath("//label[text()='Memory text']/following::textarea[1]"));
        text.clear();
        text.sendKeys("The user drinks coffee with oat milk.");
        button("Save").click();

        browser.until(ExpectedConditions.textToBe(By.id("memory-text"), "The user drinks coffee with oat milk."));
        assertThat(notice()).contains("version 2");
        JsonNode stored = api.get(key, "/memory/" + memoryId).body();
        assertThat(stored.path("text").asString()).isEqualTo("The user drinks coffee with oat milk.");
        assertThat(stored.path("version").asInt()).isEqualTo(2);
        WebElement latest = browser.visible(By.cssSelector(".revisions li[data-version='2']"));
        assertThat(latest.findElement(By.cssSelector(".diff del")).getText()).isEqualTo("black.");
        assertThat(latest.findElement(By.cssSelector(".diff ins")).getText()).isEqualTo("with oat milk.");
    }

    @Test
    void deletingAMemoryAsksFirstNamingItAndCancelKeepsIt() {
        String key = api.newTenant();
        String user = "quim-" + tag;
        String memoryId = api.addFact(key, user, "The user is allergic to hazelnuts.");

        signIn(key);
        go(route("users", user, "memories", memoryId));
        button("Delete…").click();
        assertThat(dialog().getText())
                .contains("Delete this memory?")
                .contains("allergic to hazelnuts")
                .contains(user);
        button("Cancel").click();
        browser.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("dialog")));
        assertThat(api.get(key, "/memory/" + memoryId).status()).isEqualTo(200);

        button("Delete…").click();
        dialog().findElement(By.xpath(".//button[normalize-space()='Delete memory']"))
                .click();

        assertThat(notice()).contains("Deleted").contains("allergic to hazelnuts");
        assertThat(api.get(key, "/memory/" + memoryId).status()).isEqualTo(404);
        browser.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".tab-body"), "No memories."));
    }

    @Test
    void deletingASessionAsksFirstAndReportsWhatWasDeleted() {
        String key = api.newTenant();
        String user = "rui-" + tag;
        String session = api.newSession(key, user, HISTORY_ONLY);
        api.importTurns(key, session, "I keep bees.", "How many hives?", "Three hives.", "Nice.");
        int memories = items(api.get(key, "/memory?userId=" + user)).size();

        signIn(key);
        go(route("users", user, "sessions"));
        browser.clickable(By.cssSelector("li[data-session='" + session + "'] a"))
                .click();
        browser.until(d -> d.findElements(By.cssSelector("li.turn")).size() == 4);
        button("Delete session…").click();
        assertThat(dialog().getText())
                .contains("Delete this session?")
                .contains("4 turns")
                .contains(user);
        dialog().findElement(By.xpath(".//button[normalize-space()='Delete session']"))
                .click();

        assertThat(notice()).contains("Deleted the session: 4 turns, " + memories + " memories");
        assertThat(api.get(key, "/sessions/" + session).status()).isEqualTo(404);
    }

    @Test
    void erasingAUserAsksFirstNamingWhatGoesAndThenShowsTheCounts() {
        String key = api.newTenant();
        String user = "sara-" + tag;
        String session = api.newSession(key, user, HISTORY_ONLY);
        api.importTurns(key, session, "I play the cello.", "Lovely.");
        api.addFact(key, user, "The user lives in Braga.");
        api.addFact(key, "someone-else-" + tag, "Someone else.");
        int memories = items(api.get(key, "/memory?userId=" + user)).size();

        signIn(key);
        browser.clickable(By.cssSelector(".user-list a[data-user='" + user + "']"))
                .click();
        browser.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".view-header"), "1 session"));
        button("Erase user…").click();
        String asked = dialog().getText();
        assertThat(asked)
                .contains("Erase user " + user + "?")
                .contains("1 session")
                .contains(memories + " memories");
        dialog().findElement(By.xpath(".//button[normalize-space()='Erase user']"))
                .click();

        assertThat(notice())
                .isEqualTo("Erased user " + user + ": 1 session, 2 turns, " + memories
                        + " memories and 0 reranker feedback rows.");
        browser.until(
                d -> d.findElements(By.cssSelector(".user-list a[data-user]")).size() == 1);
        assertThat(items(api.get(key, "/users")))
                .extracting(u -> u.path("userId").asString())
                .containsExactly("someone-else-" + tag);
    }

    @Test
    void aMemoryThatLooksLikeMarkupIsShownAsTextAndNeverRuns() {
        String key = api.newTenant();
        String user = "tess-" + tag;
        String markup = "<img src=x onerror=alert(1)>";
        String memoryId = api.addFact(key, user, markup);
        String edited = "<script>document.title='owned'</script><b>bold</b> " + markup;
        assertThat(api.send("PATCH", "/memory/" + memoryId, key, Json.object("text", edited))
                        .status())
                .isEqualTo(200);

        signIn(key);
        go(route("users", user, "memories"));
        assertThat(browser.visible(By.cssSelector(".memory-text")).getText()).isEqualTo(edited);
        go(route("users", user, "memories", memoryId));
        browser.visible(By.cssSelector(".revisions li[data-version='1']"));
        assertThat(browser.driver().findElement(By.id("memory-text")).getText()).isEqualTo(edited);
        assertThat(browser.driver()
                        .findElement(By.cssSelector(".revisions li[data-version='1']"))
                        .getText())
                .contains(markup);
        go(route("users", user, "search"));
        browser.visible(By.id("memory-query")).sendKeys("onerror img", Keys.ENTER);
        assertThat(browser.visible(By.cssSelector(".search-results .memory-text"))
                        .getText())
                .isEqualTo(edited);

        assertThat(browser.driver().findElements(By.cssSelector("#view img, #view script, #view b")))
                .isEmpty();
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        assertThat(browser.driver().getTitle()).isEqualTo("Memoir inspector");
    }

    @Test
    void aReplyShowsTheMemoriesItWasGivenAndCitedAndItsLearningEpisode() {
        String key = api.newTenant();
        String user = "uma-" + tag;
        String session = api.sessionAfterClosedOne(
                key, user, HISTORY_ONLY, "My sister's band is called The Gulls.", "Great name.");
        String question = "What is my sister's band called? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"The Gulls.\", \"remember\": false, \"citations\": [1]}"));
        Api.Response reply = api.chat(key, session, question);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        String turnId = reply.text("turnId");
        JsonNode given = reply.body().path("memories");
        JsonNode citedMemory = given.valueStream()
                .filter(m -> m.path("cited").asBoolean())
                .findFirst()
                .orElseThrow();
        String citedId = citedMemory.path("id").asString();
        onModelCall(
                call -> call.is(Step.REASONING_STEP) && call.mentions(tag),
                call -> Answer.json("{\"thought\": \"The hint says to look at the band's old name.\", "
                        + "\"action\": \"finish\", \"argument\": \"The Seagulls.\"}"));
        Api.Response feedback = api.send(
                "POST",
                "/reflection/feedback",
                key,
                Json.object("turnId", turnId, "verdict", "incorrect", "hint", "They renamed it."));
        assertThat(feedback.status()).as(feedback.raw()).isEqualTo(200);

        signIn(key);
        go(route("users", user, "sessions", session));
        WebElement turn = browser.visible(By.cssSelector("li.turn[data-turn='" + turnId + "']"));
        turn.findElement(By.xpath(".//button[normalize-space()='Why this reply?']"))
                .click();

        WebElement trace = browser.visible(By.cssSelector("#trace-" + turnId + " .trace"));
        browser.until(ExpectedConditions.textToBePresentInElement(trace, "Trial 2"));
        assertThat(trace.getText()).contains("Given " + given.size() + " memor").contains("cited 1");
        WebElement cited = trace.findElement(By.cssSelector("li[data-memory='" + citedId + "']"));
        assertThat(cited.findElement(By.cssSelector(".badge.cited")).getText()).isEqualTo("cited");
        assertThat(cited.getText()).contains(citedMemory.path("text").asString());
        assertThat(trace.getText())
                .contains("Question: " + question)
                .contains("Thought: The hint says to look at the band's old name.")
                .contains("Action: finish[The Seagulls.]")
                .contains("hint “They renamed it.”");
    }

    @Test
    void theRerankerPageChartsRewardAndCitedInTopKVersionByVersion() {
        String key = api.newTenant();
        String user = "vera-" + tag;
        String rerank = "{\"write\": [\"history\"], \"read\": [\"history\"], \"rerank\": true}";
        String session = api.sessionAfterClosedOne(
                key, user, rerank, "I play the violin", "Lovely.", "My sister lives in Oslo", "Nice city.");
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"Noted.\", \"remember\": false, \"citations\": [1]}"));
        // The tests train every four replies: four replies make version 1, the next is served by it.
        for (int i = 0; i < 4; i++) {
            assertThat(api.chat(key, session, "Question " + i + " " + tag).status())
                    .isEqualTo(200);
        }
        eventually()
                .until(() -> api.get(key, "/reflection/reranker")
                                .body()
                                .path("version")
                                .asInt()
                        >= 1);
        assertThat(api.chat(key, session, "Question 4 " + tag).status()).isEqualTo(200);

        signIn(key);
        browser.clickable(By.linkText("Reranker")).click();

        WebElement chart = browser.visible(By.cssSelector("svg.chart"));
        assertThat(chart.findElements(By.cssSelector("path[data-series]"))).hasSizeGreaterThanOrEqualTo(2);
        assertThat(chart.findElements(By.cssSelector("circle"))).hasSizeGreaterThanOrEqualTo(4);
        assertThat(browser.driver()
                        .findElement(By.cssSelector("[data-field='version']"))
                        .getText())
                .isNotEqualTo("0");
        browser.driver().findElement(By.xpath("//summary[text()='Figures']")).click();
        List<WebElement> rows = browser.driver().findElements(By.cssSelector("table.history tbody tr"));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).getText()).startsWith("v0 4");
        assertThat(rows.get(1).getText()).startsWith("v1 1");
    }

    @Test
    void theUsagePageChartsTokensPerDayByStepAndListsEachUsersUsageAsTheApiAnswersIt() {
        String key = api.newTenant();
        List<String> sessions = new ArrayList<>();
        for (String user : List.of("uma-" + tag, "ugo-" + tag)) {
            String session = api.newSession(key, user, null);
            sessions.add(session);
            assertThat(api.chat(key, session, "What grows well in shade? " + tag)
                            .status())
                    .isEqualTo(200);
        }
        // The memory jobs the replies queued finished too: a job's model request counted between the API's answer
        // and the page's would make them differ.
        eventually()
                .until(() -> sessions.stream()
                        .allMatch(session -> api.get(key, "/sessions/" + session)
                                .body()
                                .path("jobs")
                                .valueStream()
                                .allMatch(job -> job.path("state").asString().equals("done"))));
        // Both replies written: usage is written every 200 ms here, a reply's embeddings possibly before it.
        eventually()
                .until(() -> api.get(key, "/usage?groupBy=step")
                        .body()
                        .path("groups")
                        .valueStream()
                        .anyMatch(group -> group.path("key").asString().equals("reply")
                                && group.path("total").path("requests").asLong() == 2));
        JsonNode byUser = api.get(key, "/usage?groupBy=user").body();

        signIn(key);
        browser.clickable(By.linkText("Usage")).click();

        WebElement chart = browser.visible(By.cssSelector("svg.chart"));
        assertThat(chart.findElements(By.cssSelector("path[data-series='reply']")))
                .hasSize(1);
        assertThat(browser.driver()
                        .findElement(By.cssSelector("[data-field='prompt-tokens']"))
                        .getText())
                .isEqualTo(String.format(
                        Locale.ENGLISH,
                        "%,d",
                        byUser.path("total").path("promptTokens").asLong()));
        for (JsonNode group : byUser.path("groups")) {
            WebElement row = browser.driver()
                    .findElement(By.cssSelector("table.usage-users tr[data-user='"
                            + group.path("key").asString() + "']"));
            assertThat(row.getText())
                    .contains(String.format(
                            Locale.ENGLISH,
                            "%,d",
                            group.path("total").path("promptTokens").asLong()))
                    .contains("(estimate)");
        }
    }

    @Test
    void theWebhooksPageShowsTheEndpointsAndTheirRecentDeliveriesWithStateAttemptsAndLastError() throws Exception {
        String key = api.newTenant();
        String user = "wren-" + tag;
        com.sun.net.httpserver.HttpServer receiver =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        int closedPort;
        try (java.net.ServerSocket socket =
                new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            closedPort = socket.getLocalPort();
        }
        try {
            String up = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
            String down = "http://127.0.0.1:" + closedPort + "/hook";
            for (String url : List.of(up, down)) {
                assertThat(api.send(
                                        "POST",
                                        "/webhooks",
                                        key,
                                        Json.object("url", url, "events", List.of("memory.created")))
                                .status())
                        .isEqualTo(201);
            }
            api.addFact(key, user, "The user rows boats.");
            List<JsonNode> endpoints = items(api.get(key, "/webhooks"));
            String upId = endpoints.stream()
                    .filter(e -> e.path("url").asString().equals(up))
                    .findFirst()
                    .orElseThrow()
                    .path("id")
                    .asString();
            String downId = endpoints.stream()
                    .filter(e -> e.path("url").asString().equals(down))
                    .findFirst()
                    .orElseThrow()
                    .path("id")
                    .asString();
            eventually()
                    .until(() -> items(api.get(key, "/webhooks/" + upId + "/deliveries"))
                            .getFirst()
                            .path("state")
                            .asString()
                            .equals("delivered"));
            eventually()
                    .until(() -> items(api.get(key, "/webhooks/" + downId + "/deliveries"))
                                    .getFirst()
                                    .path("attempts")
                                    .asInt()
                            >= 1);

            signIn(key);
            browser.clickable(By.linkText("Webhooks")).click();
            browser.visible(By.cssSelector("table.deliveries"));
            assertThat(view().findElement(By.id("view-title")).getText()).isEqualTo("Webhooks");
            WebElement delivered = browser.visible(By.cssSelector("[data-endpoint='" + upId + "'] tbody tr"));
            assertThat(delivered.getText()).contains("memory.created", user, "delivered", "204");
            WebElement failing = browser.visible(By.cssSelector("[data-endpoint='" + downId + "'] tbody tr"));
            assertThat(failing.getText())
                    .contains("memory.created", user, "could not be reached")
                    .containsAnyOf("pending", "failed");
            assertThat(view().getText()).contains(up, down);
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void onAPhoneScreenTheMemoryFitsTheWidthAndTheUsersListStepsAside() {
        String key = api.newTenant();
        String user = "wanda-" + tag;
        String memoryId = api.addFact(
                key, user, "The user's favourite word is " + "supercalifragilisticexpialidocious".repeat(4) + ".");
        browser.resize(Browser.PHONE);

        signIn(key);
        browser.clickable(By.cssSelector(".user-list a[data-user='" + user + "']"))
                .click();
        browser.clickable(By.cssSelector("li[data-memory='" + memoryId + "'] .card-title a"))
                .click();
        browser.visible(By.id("memory-text"));

        assertThat(browser.driver().findElement(By.id("users")).isDisplayed()).isFalse();
        assertThat((Boolean) browser.script(
                        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"))
                .isTrue();
        browser.clickable(By.linkText("← All users")).click();
        assertThat(browser.visible(By.id("users")).isDisplayed()).isTrue();
    }

    @Test
    void theWholeFlowWorksFromTheKeyboard() {
        String key = api.newTenant();
        String user = "xena-" + tag;
        api.addFact(key, user, "The user prefers the window seat.");
        openSignedOut();

        // Focus starts in the key field; Enter submits; from the users search, Tab passes its button to the result.
        assertThat(browser.driver().switchTo().activeElement().getAttribute("id"))
                .isEqualTo("api-key");
        browser.driver().switchTo().activeElement().sendKeys(key, Keys.ENTER);
        browser.visible(By.cssSelector(".user-list a[data-user='" + user + "']"));
        WebElement find = browser.driver().findElement(By.id("user-query"));
        find.sendKeys("xena", Keys.ENTER);
        browser.until(
                d -> d.findElements(By.cssSelector(".user-list a[data-user]")).size() == 1);
        find.sendKeys(Keys.TAB, Keys.TAB);
        WebElement focused = browser.driver().switchTo().activeElement();
        assertThat(focused.getAttribute("data-user")).isEqualTo(user);
        focused.sendKeys(Keys.ENTER);
        browser.until(ExpectedConditions.textToBe(By.id("view-title"), user));
    }
}
