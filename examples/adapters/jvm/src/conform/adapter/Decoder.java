package conform.adapter;

/**
 * What a Java or Kotlin decoder implements to run under conform: one case's input part in, the
 * suite's expected part out.
 *
 * <pre>{@code
 * Adapter.serve("my-decoder", "1.0.0", "java", Map.of("chat", List.of(1)),
 *         (suite, input, fixtureVersion) -> MyDecoder.decodeChat((Map<?, ?>) input));
 * }</pre>
 *
 * <p>In Kotlin: {@code Adapter.serve("my-decoder", "1.0.0", "kotlin", mapOf("chat" to listOf(1))) { suite, input, version -> … }}.
 */
@FunctionalInterface
public interface Decoder {
    /**
     * Maps a case's input part to its output.
     *
     * @param suite the suite of the case ({@code "chat"}, {@code "sse"}, …), one declared in the hello
     * @param input the case's input part as {@link JsonReader} reads it: maps, lists, strings,
     *     {@code Double}s, {@code Boolean}s and {@code null}
     * @param fixtureVersion the case's fixtureVersion, one declared for the suite
     * @return the expected part, as values {@link JsonWriter} writes (maps, lists, strings, numbers,
     *     booleans, {@code null})
     * @throws Skip to decline the case (verdict {@code skipped}, with the reason)
     * @throws Exception for any other failure: the case's verdict is {@code error}, with the
     *     exception's text, and its stack trace goes to stderr (attached to the report)
     */
    Object decode(String suite, Object input, int fixtureVersion) throws Exception;
}
