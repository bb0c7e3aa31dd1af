package dev.memoir.feedback;

import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.retrieval.RecursiveReasoner;
import dev.memoir.tenant.TenantId;

/** Starts learning episodes for replies that reasoned with R^3, so that their trace is kept from the start. */
@Service
public class Episodes {

    private final EpisodeRepository episodes;

    Episodes(EpisodeRepository episodes) {
        this.episodes = episodes;
    }

    /** Records a reasoned reply as the first trial of an episode, in the transaction that stores the reply. */
    @Transactional(propagation = Propagation.MANDATORY)
    public UUID startWithReasonedReply(TenantId tenant, String userId, UUID sessionId, UUID questionTurnId,
            UUID replyTurnId, String question, RecursiveReasoner.Reasoning reasoning) {
        return episodes.save(new Episode(tenant.value(), userId, sessionId, questionTurnId, replyTurnId, question,
                Trial.reasoned(1, reasoning))).getId();
    }
}
