package dev.memoir.feedback;

import java.util.UUID;

import dev.memoir.common.web.ConflictException;

class EpisodeEndedException extends ConflictException {

    EpisodeEndedException(UUID episodeId) {
        super("episode-ended", "Episode " + episodeId + " has ended; ask again in a chat to start a new one");
    }
}
