import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import ai.onnxruntime.*;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.*;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;

/**
 * How long the in-process bge-small-en-v1.5 model takes to embed one search query, and how many dialogue turns a
 * second it embeds in batches, as Memoir's service uses it (langchain4j's defaults) and with ONNX Runtime's thread
 * settings changed. See docs/scale-benchmark.md ("The API floor"). Run by bench/embedding/run.sh.
 *
 *   java -cp CLASSPATH EmbedBench.java QUERIES_FILE TURNS_FILE default|INTRA_OP_THREADS,SPINNING,EXECUTOR_THREADS
 */
public class EmbedBench {
    static class Tuned extends AbstractInProcessEmbeddingModel {
        final OnnxBertBiEncoder enc;
        Tuned(Executor ex, OnnxBertBiEncoder enc) { super(ex); this.enc = enc; }
        protected OnnxBertBiEncoder model() { return enc; }
        public int dimension() { return 384; }
    }
    static Tuned tuned(int intra, boolean spin, int executorThreads) throws Exception {
        var env = OrtEnvironment.getEnvironment();
        var opts = new OrtSession.SessionOptions();
        opts.setIntraOpNumThreads(intra);
        opts.setInterOpNumThreads(1);
        opts.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
        opts.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
        if (!spin) opts.addConfigEntry("session.intra_op.allow_spinning", "0");
        byte[] model = EmbedBench.class.getClassLoader().getResourceAsStream("bge-small-en-v1.5-q.onnx").readAllBytes();
        var session = env.createSession(model, opts);
        var enc = new OnnxBertBiEncoder(env, session,
            EmbedBench.class.getClassLoader().getResourceAsStream("bge-small-en-v1.5-q-tokenizer.json"), PoolingMode.CLS);
        return new Tuned(Executors.newFixedThreadPool(executorThreads), enc);
    }
    static void run(String name, dev.langchain4j.model.embedding.EmbeddingModel m, List<String> qs, List<String> docs) {
        // memoir.embedding.query-instruction's default for bge
        String instr = "Represent this sentence for searching relevant passages: ";
        for (int i = 0; i < 50; i++) m.embed(instr + qs.get(i));
        long[] t = new long[qs.size()];
        for (int i = 0; i < qs.size(); i++) { long s = System.nanoTime(); m.embed(instr + qs.get(i) + " " + i); t[i] = System.nanoTime() - s; }
        Arrays.sort(t);
        List<TextSegment> segs = docs.stream().map(TextSegment::from).toList();
        m.embedAll(segs.subList(0, 64));
        long s = System.nanoTime();
        for (int r = 0; r < 2; r++) m.embedAll(segs);
        double secs = (System.nanoTime() - s) / 1e9;
        System.out.printf("%-40s query p50 %.2f p95 %.2f ms | docs %.1f/s%n", name, t[t.length/2]/1e6, t[t.length*95/100]/1e6, 2*segs.size()/secs);
    }
    public static void main(String[] a) throws Exception {
        List<String> qs = Files.readAllLines(Path.of(a[0]));
        List<String> docs = Files.readAllLines(Path.of(a[1]));
        String which = a[2];
        switch (which) {
            case "default" -> run("default (langchain4j)", new BgeSmallEnV15QuantizedEmbeddingModel(), qs, docs);
            default -> { String[] p = which.split(","); run("intra=" + p[0] + " spin=" + p[1] + " exec=" + p[2],
                    tuned(Integer.parseInt(p[0]), Boolean.parseBoolean(p[1]), Integer.parseInt(p[2])), qs, docs); }
        }
        System.exit(0);
    }
}
