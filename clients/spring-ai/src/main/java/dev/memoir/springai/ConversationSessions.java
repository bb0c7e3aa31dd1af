package dev.memoir.springai;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Memoir session each (user, conversation) records into: started on the conversation's first exchange, and
 * started again when Memoir closed it (it closes a session after a while without turns) or it was deleted. Kept in
 * this process, the least recently used forgotten past {@value #MOST}: such a conversation, like any after a restart,
 * goes on in a new session, which changes nothing about what Memoir remembers of the user.
 */
final class ConversationSessions {

    private static final int MOST = 10_000;
    private static final int LOCKS = 64;

    private final MemoirClient client;
    private final Map<String, String> sessions = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MOST;
        }
    });
    // Two first exchanges of one conversation at once start one session, not two.
    private final Object[] locks = new Object[LOCKS];

    ConversationSessions(MemoirClient client) {
        this.client = client;
        for (int i = 0; i < LOCKS; i++) {
            locks[i] = new Object();
        }
    }

    /** The session of the conversation, if an exchange was recorded in it. */
    String current(String userId, String conversationId) {
        return sessions.get(key(userId, conversationId));
    }

    /** Forgets the conversation's session, which Memoir no longer has. */
    void forget(String userId, String conversationId, String sessionId) {
        sessions.remove(key(userId, conversationId), sessionId);
    }

    void record(String userId, String conversationId, List<MemoirClient.Turn> turns) {
        String key = key(userId, conversationId);
        synchronized (locks[Math.floorMod(key.hashCode(), LOCKS)]) {
            String session = sessions.get(key);
            if (session != null) {
                try {
                    client.appendTurns(session, turns);
                    return;
                } catch (MemoirException e) {
                    if (!"session-closed".equals(e.code()) && !"not-found".equals(e.code())) {
                        throw e;
                    }
                }
            }
            session = client.startSession(userId);
            sessions.put(key, session);
            client.appendTurns(session, turns);
        }
    }

    private static String key(String userId, String conversationId) {
        return userId + '\u0000' + conversationId;
    }
}
