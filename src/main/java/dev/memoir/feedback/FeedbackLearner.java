package dev.memoir.feedback;

import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.api.Trust;
import dev.memoir.redaction.SecretRedactor;
import dev.memoir.reranker.Reranker;
import dev.memoir.retrieval.RamProperties;
import dev.memoir.retrieval.RecursiveReasoner;
import dev.memoir.session.SessionMemoryWrite;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.RepliedTurn;
import dev.memoir.tenant.TenantId;

/**
 * Learning from the user's feedback on a reply (RAM). The feedback is stored first, so that a failing
 * model loses nothing. Then:
 * <ul>
 * <li>a correct verdict, or an answer that means the same as the latest one, ends the episode (and rewards the
 * reply's memories in the reranker); a different answer ends it with that answer as the truth;</li>
 * <li>an incorrect verdict or a hint starts another R^3 trial with the feedback in its scratchpad, unless the
 * trials are used up; a new inference that repeats an earlier one asks the user for help instead;</li>
 * <li>an ended episode reflects its lesson into memory, editing the most similar memory in place.</li>
 * </ul>
 */
@Service
class FeedbackLearner {

    private final SessionService sessions;
    private final TurnReader turnReader;
    private final SessionMemoryWrite memoryWrite;
    private final EpisodeRepository episodes;
    private final ReplyFeedbackRepository feedbackRows;
    private final ReplyTraces traces;
    private final RecursiveReasoner reasoner;
    private final LessonWriter lessons;
    private final Reranker reranker;
    private final TransactionTemplate transaction;
    private final RamProperties properties;
    private final TextEmbedder embedder;
    private final AdvisoryLocks locks;
    private final SecretRedactor redactor;

    FeedbackLearner(
            SessionService sessions,
            TurnReader turnReader,
            SessionMemoryWrite memoryWrite,
            EpisodeRepository episodes,
            ReplyFeedbackRepository feedbackRows,
            ReplyTraces traces,
            RecursiveReasoner reasoner,
            LessonWriter lessons,
            Reranker reranker,
            TransactionTemplate transaction,
            RamProperties properties,
            AdvisoryLocks locks,
            TextEmbedder embedder,
            SecretRedactor redactor) {
        this.redactor = redactor;
        this.embedder = embedder;
        this.locks = locks;
        this.sessions = sessions;
        this.turnReader = turnReader;
        this.memoryWrite = memoryWrite;
        this.episodes = episodes;
        this.feedbackRows = feedbackRows;
        this.traces = traces;
        this.reasoner = reasoner;
        this.lessons = lessons;
        this.reranker = reranker;
        this.transaction = transaction;
        this.properties = properties;
    }

    private record Received(Episode episode, ReplyFeedback row) {}

    FeedbackResult learn(TenantId tenant, FeedbackRequest request) {
        RepliedTurn replied = turnReader.reply(tenant, request.turnId());
        // The user's words, kept, exported and sent to the model as a turn's are: the tenant's redaction policy first.
        Trial.FeedbackNote note = new Trial.FeedbackNote(
                request.verdict() == null ? null : request.verdict().wireName(),
                blankToNull(redactor.redact(tenant, request.hint())),
                blankToNull(redactor.redact(tenant, request.answer())));
        Received received = transaction.execute(status -> receive(tenant, replied, note));
        Episode episode = received.episode();
        String latest = episode.getTrials().getLast().inference();

        boolean correct = request.verdict() == FeedbackRequest.Verdict.CORRECT
                || (request.verdict() == null
                        && note.answer() != null
                        && similarity(note.answer(), latest) > properties.acceptThreshold());
        if (correct) {
            boolean firstReplyConfirmed = episode.getTrials().size() == 1;
            // An answer given with a correct verdict says it better than the reply did.
            return end(
                    tenant,
                    received,
                    EpisodeStatus.RESOLVED,
                    note.answer() != null ? note.answer() : latest,
                    firstReplyConfirmed);
        }
        if (note.answer() != null) {
            return end(tenant, received, EpisodeStatus.RESOLVED, note.answer(), false);
        }
        if (episode.getTrials().size() >= properties.maxTrials()) {
            return end(tenant, received, EpisodeStatus.EXHAUSTED, hints(episode), false);
        }
        return retry(tenant, received);
    }

    private Received receive(TenantId tenant, RepliedTurn replied, Trial.FeedbackNote note) {
        // The user's lock first, as every writer of the user takes it (SessionService); the reply is then read
        // again, since erasing the user may have deleted it meanwhile (404, as for any unknown turn).
        locks.lockShared(
                AdvisoryLocks.Space.USER_MEMORY,
                AdvisoryLocks.userKey(tenant.value(), replied.session().userId()));
        turnReader.reply(tenant, replied.reply().id());
        locks.lock(AdvisoryLocks.Space.REPLY_EPISODE, replied.reply().id().toString());
        Episode episode = episodes.lockByReplyTurnIdAndTenantId(replied.reply().id(), tenant.value())
                .orElseGet(() -> episodes.save(new Episode(
                        tenant.value(),
                        replied.session().userId(),
                        replied.session().id(),
                        replied.question().id(),
                        replied.reply().id(),
                        replied.question().content(),
                        new Trial(
                                1,
                                List.of(),
                                replied.reply().content(),
                                traces.memoriesGiven(tenant, replied.reply().id()),
                                null))));
        if (episode.getStatus().ended()) {
            throw new EpisodeEndedException(episode.getId());
        }
        episode.feedbackOnLatest(note);
        ReplyFeedback row = feedbackRows.save(new ReplyFeedback(
                tenant.value(),
                replied.reply().id(),
                episode.getId(),
                note.verdict(),
                note.hint(),
                note.answer(),
                "received"));
        return new Received(episode, row);
    }

    // A retried answer is a reply of the session: it reads no memory the session's replies may not. A session gone
    // since leaves no minimum to read: the strictest holds.
    private Trust minTrustOf(TenantId tenant, UUID sessionId) {
        try {
            return sessions.require(tenant, sessionId).settings().minTrust();
        } catch (NotFoundException gone) {
            return Trust.HIGH;
        }
    }

    private FeedbackResult retry(TenantId tenant, Received received) {
        Episode episode = received.episode();
        RecursiveReasoner.Reasoning reasoning = reasoner.reason(
                tenant,
                episode.getUserId(),
                episode.getQuestion(),
                Trial.asEarlierAnswers(episode.getTrials()),
                List.of(episode.getQuestionTurnId(), episode.getReplyTurnId()),
                minTrustOf(tenant, episode.getSessionId()));
        Trial trial = Trial.reasoned(episode.getTrials().size() + 1, reasoning);
        String inference = trial.inference();
        boolean repeats = episode.getTrials().stream()
                .anyMatch(t -> similarity(inference, t.inference()) > properties.repeatThreshold());
        EpisodeStatus status = repeats ? EpisodeStatus.NEEDS_FEEDBACK : EpisodeStatus.OPEN;
        String outcome = repeats ? "needs_feedback" : "retried";
        Episode updated = transaction.execute(tx -> {
            locks.lockShared(
                    AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant.value(), episode.getUserId()));
            Episode locked = lockUnchanged(episode);
            locked.addTrial(trial, status);
            feedbackRows
                    .findByIdAndTenantId(received.row().getId(), tenant.value())
                    .ifPresent(row -> row.outcome(outcome));
            return locked;
        });
        return new FeedbackResult(
                received.row().getId(),
                updated.getId(),
                outcome,
                updated.getStatus(),
                inference,
                repeats,
                updated.getTrials(),
                null);
    }

    private FeedbackResult end(
            TenantId tenant, Received received, EpisodeStatus endStatus, String truth, boolean rewardReply) {
        String outcome = endStatus == EpisodeStatus.EXHAUSTED ? "exhausted" : "resolved";
        record Ended(Episode episode, Learned learned) {}
        Ended ended = memoryWrite.write(
                received.episode(), episode -> lessons.reflect(episode, truth), (episode, reflected, hold) -> {
                    // The user's lock and the session (the hold) before the episode's row, in the order every
                    // writer of the user takes them: erasing the user holds the first and waits for the others.
                    boolean sessionKept = hold.session(tenant, episode.getSessionId());
                    Episode locked = lockUnchanged(episode);
                    Learned learned = reflected.isPresent() && sessionKept
                            ? lessons.place(locked, reflected.get())
                            : Learned.nothing();
                    locked.end(endStatus, learned.text(), learned.memoryId());
                    if (rewardReply) {
                        reranker.confirmReply(tenant, locked.getReplyTurnId());
                    }
                    feedbackRows
                            .findByIdAndTenantId(received.row().getId(), tenant.value())
                            .ifPresent(row -> row.outcome(outcome));
                    return new Ended(locked, learned);
                });
        return new FeedbackResult(
                received.row().getId(),
                ended.episode().getId(),
                outcome,
                ended.episode().getStatus(),
                null,
                false,
                ended.episode().getTrials(),
                ended.learned());
    }

    /**
     * The episode, locked, as it was when this feedback was received: feedback on the same reply that arrived
     * meanwhile and got there first wins, and this one is refused rather than applied on top.
     */
    private Episode lockUnchanged(Episode seen) {
        // Gone only when the user was erased meanwhile: the reply is gone too.
        Episode locked = episodes.lockByReplyTurnIdAndTenantId(seen.getReplyTurnId(), seen.getTenantId())
                .orElseThrow(() -> new NotFoundException("Turn", seen.getReplyTurnId()));
        if (locked.getStatus().ended()) {
            throw new EpisodeEndedException(locked.getId());
        }
        if (locked.getTrials().size() != seen.getTrials().size()) {
            throw new EpisodeChangedException(locked.getId());
        }
        return locked;
    }

    private double similarity(String a, String b) {
        return a == null || b == null ? 0 : embedder.similarity(a, b);
    }

    private static String hints(Episode episode) {
        String hints = episode.getTrials().stream()
                .map(Trial::feedback)
                .filter(f -> f != null && f.hint() != null)
                .map(Trial.FeedbackNote::hint)
                .collect(Collectors.joining("; "));
        return hints.isEmpty() ? "Unknown: every answer was judged incorrect." : "Unknown; the user's hints: " + hints;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
