package dev.memoir.retrieval.layout;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Messages about the arc of the dialogue, and messages about one thing said in it. */
class OverviewQuestionTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Can you list the order in which I brought up the parts of my budget app?",
                "In what order did we fix the deployment problems?",
                "What did we do first on the portfolio site?",
                "Summarize our work on the Flask migration.",
                "Can you give me a summary of how my reading goals have developed over time?",
                "How has my training plan evolved across our conversations?",
                "Walk me through how the estate planning went.",
                "Give me a recap of what we decided so far."
            })
    void aMessageAboutOrderOrTheArcAsksForAnOverview(String message) {
        assertThat(OverviewQuestion.asks(message)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "How many gunicorn workers did we choose?",
                "What port does my Flask app run on?",
                "Which sneakers did I try on in June?",
                "Can you order a pizza for me?",
                "Is the first argument of this function the path?"
            })
    void aMessageAboutOneThingDoesNot(String message) {
        assertThat(OverviewQuestion.asks(message)).isFalse();
    }

    @org.junit.jupiter.api.Test
    void aQuestionAboutWhatTheUserBroughtUpIsAnsweredFromTheUsersSide() {
        assertThat(OverviewQuestion.asksForUsersSide("List the order in which I brought up parts of my app."))
                .isTrue();
        assertThat(OverviewQuestion.asksForUsersSide("What did I mention first about the budget?"))
                .isTrue();
        assertThat(OverviewQuestion.asksForUsersSide("Summarize the advice we've talked about."))
                .isFalse();
        assertThat(OverviewQuestion.asksForUsersSide("Summarize how my budget tracker developed."))
                .isFalse();
    }
}
