package dev.memoir.llm;

import org.springframework.stereotype.Component;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;

/**
 * Counts and trims text by tokens with a real BPE tokenizer (cl100k_base). Other models' tokenizers differ by a
 * few percent, which the budgets leave room for; characters would be off by a factor.
 */
@Component
public class TokenCounter {

    private final Encoding encoding = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    public int count(String text) {
        return encoding.countTokensOrdinary(text);
    }

    /** The longest prefix of the text within {@code maxTokens}, with an ellipsis when something was cut. */
    public String truncate(String text, int maxTokens) {
        if (maxTokens <= 0) {
            return "";
        }
        IntArrayList tokens = encoding.encodeOrdinary(text);
        if (tokens.size() <= maxTokens) {
            return text;
        }
        IntArrayList kept = new IntArrayList(maxTokens);
        for (int i = 0; i < maxTokens - 1; i++) {
            kept.add(tokens.get(i));
        }
        return encoding.decode(kept) + "…";
    }
}
