package dev.memoir.support;

/** Plain English of a given length, as users write it, different for each seed: for prompts that must be long. */
public final class Prose {

    private static final String[] SENTENCES = {
        "On the third of May we drove from Porto to Braga to see my grandmother, who still keeps bees.",
        "My sister Maria plays the cello in a small orchestra that rehearses on Tuesday evenings.",
        "I have been a vegetarian since 2019, mostly because of a documentary I watched in college.",
        "The train to work takes forty minutes, so I read history books on the way.",
        "Last winter I broke my wrist skiing in the Alps, and it still aches when it rains.",
        "We are planning a trip to Japan next April to see the cherry blossoms in Kyoto.",
        "My manager asked me to lead the migration of our billing system before the end of the year.",
        "On Sundays I usually cook a big pot of lentil soup and freeze half of it for the week.",
    };

    private Prose() {}

    /** About {@code words} words. */
    public static String words(int seed, int words) {
        StringBuilder text = new StringBuilder();
        int count = 0;
        for (int i = seed; count < words; i++) {
            String sentence = SENTENCES[Math.floorMod(i * 5 + seed, SENTENCES.length)];
            text.append(sentence).append(' ');
            count += sentence.split(" ").length;
        }
        return text.toString().strip();
    }
}
