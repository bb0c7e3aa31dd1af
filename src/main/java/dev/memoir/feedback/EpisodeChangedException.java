package dev.memoir.feedback;

import java.util.UUID;

import dev.memoir.common.web.ConflictException;

class EpisodeChangedException extends ConflictException {

    EpisodeChangedException(UUID episodeId) {
        super(
                "episode-changed",
                "Other feedback on episode " + episodeId + " was applied meanwhile; read the "
                        + "episode and give feedback on its latest answer");
    }
}
