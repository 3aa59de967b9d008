package conform.example;

import conform.adapter.Adapter;
import conform.adapter.Skip;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A complete conform adapter in Java: copy this file next to your decoder, put the kit's jar on the
 * class path, and replace the body of {@link #decode}.
 *
 * <pre>
 * conform run fixtures --impl-cmd 'java -jar build/conform-adapter-example.jar'             # persistent (fast)
 * conform run fixtures --impl-cmd 'java -jar build/conform-adapter-example.jar' --one-shot  # one JVM per case
 * conform check-adapter --impl-cmd 'java -jar build/conform-adapter-example.jar'            # protocol smoke test
 * </pre>
 *
 * <p>As shipped, {@code decode} asks conform's own reference ({@link ReferenceDecoder}), so every
 * case passes and the wiring can be tried before any decoder exists.
 */
public final class MyAdapter {
    private static ReferenceDecoder reference;

    /**
     * The suites this adapter implements, with the fixtureVersions of each, e.g.
     * {@code Map.of("chat", List.of(1), "sse", List.of(1))}. Cases of other suites are reported as
     * {@code unsupported} and never sent. As shipped: every suite the stand-in reference implements.
     */
    private static Map<String, List<Integer>> suites;

    private MyAdapter() {}

    /**
     * Maps a case's input part to its output (the suite's expected part): maps, lists, strings,
     * numbers, booleans and null. Throw {@code new Skip("reason")} to decline; any other exception
     * makes the case an {@code error}.
     */
    static Object decode(String suite, Object input, int fixtureVersion) throws Exception {
        if (!suites.containsKey(suite)) {
            throw new Skip("suite " + suite + " is not wired in yet");
        }
        // Replace this line with a call into your decoder, for example:
        //     return ChatProjection.project((Map<?, ?>) input);
        return reference.decode(suite, input, fixtureVersion);
    }

    /** Starts the stand-in reference, then serves {@link #decode}. */
    public static void main(String[] args) throws IOException {
        reference = new ReferenceDecoder();
        suites = reference.suites();
        Adapter.serve("example-java", "1.0.0", "java", suites, MyAdapter::decode);
    }
}
