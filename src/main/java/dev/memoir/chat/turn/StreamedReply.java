package dev.memoir.chat.turn;

import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.memoir.llm.LenientJson;

/**
 * The reply text of a reply answer that the model is still writing, handed on in pieces as it is decoded, never
 * further than the text that the complete answer's reply is sure to start with. {@link ReplyDecision} reads the
 * reply stripped of surrounding white space and cut as {@link LenientJson#clip} cuts it, so a trailing run of white
 * space waits for the text after it, and past half of {@link LenientJson#MAX_TEXT_LENGTH} only text before a space
 * already seen goes out (a runaway reply is cut at its last space past that half). {@link #finish} sends the rest.
 */
final class StreamedReply {

    private static final Logger log = LoggerFactory.getLogger(StreamedReply.class);
    private static final int MAX = LenientJson.MAX_TEXT_LENGTH;

    private final JsonStringFieldDecoder decoder = new JsonStringFieldDecoder("reply");
    private final Consumer<String> deltas;
    /** The reply's text decoded so far, without its leading white space. */
    private final StringBuilder decoded = new StringBuilder();

    private int sent;

    StreamedReply(Consumer<String> deltas) {
        this.deltas = deltas;
    }

    /** Reads the next piece of the model's answer and sends whatever reply text is now sure. */
    void accept(String answerPiece) {
        String piece = decoder.feed(answerPiece);
        if (piece.isEmpty()) {
            return;
        }
        decoded.append(decoded.isEmpty() ? piece.stripLeading() : piece);
        int sure = sureLength();
        if (sure > sent) {
            deltas.accept(decoded.substring(sent, sure));
            sent = sure;
        }
    }

    /** Sends what the complete answer's reply has beyond the text already sent. */
    void finish(String reply) {
        String alreadySent = decoded.substring(0, sent);
        if (!reply.startsWith(alreadySent)) {
            // Only an answer that names its reply twice gets here (the parse keeps the last one): what was sent stays
            // sent, and the stored reply is the parsed one. Sizes only, as the text is the user's conversation.
            log.warn(
                    "The streamed reply ({} characters) is not the start of the answer's reply ({} characters)",
                    alreadySent.length(),
                    reply.length());
            return;
        }
        if (reply.length() > sent) {
            deltas.accept(reply.substring(sent));
        }
        sent = reply.length();
    }

    private int sureLength() {
        int length = decoded.length();
        int sure = length;
        if (length > MAX / 2 + 1) {
            // A reply longer than MAX is cut at its last space before MAX when that space lies past MAX / 2, else
            // at MAX - 1 or MAX - 2: whatever comes, it keeps at least what lies before such a space seen already.
            int space = decoded.lastIndexOf(" ", Math.min(length - 1, MAX - 1));
            sure = Math.max(MAX / 2 + 1, space);
        }
        // White space may turn out to be trailing (and stripped); half a surrogate pair cannot be sent alone.
        while (sure > sent
                && (Character.isWhitespace(decoded.charAt(sure - 1))
                        || Character.isHighSurrogate(decoded.charAt(sure - 1)))) {
            sure--;
        }
        return sure;
    }
}
