package dev.memoir.llm;

/** The pipeline steps that call the chat model; names appear in logs and as the {@code step} tag of metrics. */
public enum ChatStep {
    REPLY("reply"),
    SELF_REFLECTION("self-reflection"),
    CONDITIONAL_MEMORY("conditional-memory"),
    SESSION_SUMMARY("session-summary"),
    MEMO_WRITING("memo-writing"),
    MEMO_RETRIEVAL("memo-retrieval"),
    RECURSIVE_SUMMARY("recursive-summary"),
    TOPIC_EXTRACTION("topic-extraction"),
    TOPIC_UPDATE("topic-update"),
    REASONING("reasoning"),
    MEMORY_REFLECTION("memory-reflection");

    private final String label;

    ChatStep(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
