package conform.example;

import conform.adapter.JsonException;
import conform.adapter.JsonReader;
import conform.adapter.JsonWriter;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stand-in decoder for the example: asks conform's own reference implementations, through
 * {@code conform adapter}, for each output. It shows the adapter end to end before your decoder is
 * wired in, and how to wrap a decoder that runs in another process. The conform binary is taken
 * from {@code $CONFORM_BIN}, else {@code conform} on {@code PATH}, else the newest build in the
 * {@code target/} folder of the repository this jar sits in.
 */
public final class ReferenceDecoder {
    /** Thrown when the reference answers a case with an error. */
    public static final class DecodeError extends Exception {
        private static final long serialVersionUID = 1L;

        DecodeError(String message) {
            super(message);
        }
    }

    private final Process child;
    private final OutputStream toChild;
    private final BufferedReader fromChild;
    private final Map<String, List<Integer>> suites = new LinkedHashMap<>();
    private long nextId;

    /** Starts {@code conform adapter} and says hello to it. */
    public ReferenceDecoder() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(conformBinary(), "adapter");
        // In one-shot mode this process sees CONFORM_SUITE & co.; `conform adapter` must not, or it
        // would take them as its own one-shot case.
        builder.environment().keySet().removeIf(key -> key.startsWith("CONFORM_"));
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        child = builder.start();
        toChild = child.getOutputStream();
        fromChild = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("op", "hello");
        hello.put("protocol", 1);
        hello.put("harness", Map.of("name", "ReferenceDecoder.java", "version", "1"));
        Map<?, ?> reply = exchange(hello);
        if (!"hello".equals(reply.get("op")) || !(reply.get("suites") instanceof Map)) {
            throw new IOException("conform adapter said " + reply + " instead of hello");
        }
        for (Map.Entry<?, ?> suite : ((Map<?, ?>) reply.get("suites")).entrySet()) {
            List<Integer> versions = new ArrayList<>();
            for (Object version : (List<?>) suite.getValue()) {
                versions.add(((Number) version).intValue());
            }
            suites.put((String) suite.getKey(), versions);
        }
    }

    /** The suites the reference implements, with their fixtureVersions. */
    public Map<String, List<Integer>> suites() {
        return new LinkedHashMap<>(suites);
    }

    /** The reference's output for one case; a {@link DecodeError} for its errors. */
    public Object decode(String suite, Object input, int fixtureVersion) throws IOException, DecodeError {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("op", "run");
        request.put("id", ++nextId);
        request.put("suite", suite);
        request.put("fixture", "");
        request.put("fixtureVersion", fixtureVersion);
        request.put("input", input);
        Map<?, ?> reply = exchange(request);
        if (reply.containsKey("output")) {
            return reply.get("output");
        }
        Object reason = reply.containsKey("error") ? reply.get("error") : reply.get("skipped");
        throw new DecodeError(reason == null ? "no output" : reason.toString());
    }

    private Map<?, ?> exchange(Map<String, Object> message) throws IOException {
        try {
            toChild.write((JsonWriter.compact(message) + "\n").getBytes(StandardCharsets.UTF_8));
            toChild.flush();
            String line = fromChild.readLine();
            if (line == null) {
                throw new IOException("conform adapter exited");
            }
            Object reply = JsonReader.parse(line);
            if (!(reply instanceof Map)) {
                throw new IOException("conform adapter wrote a line that is not an object: " + line);
            }
            return (Map<?, ?>) reply;
        } catch (JsonException err) {
            throw new IOException("conform adapter: " + err.getMessage(), err);
        }
    }

    private static String conformBinary() throws IOException {
        String fromEnvironment = System.getenv("CONFORM_BIN");
        if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
            return fromEnvironment;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String folder : path.split(File.pathSeparator)) {
                Path candidate = Paths.get(folder.isEmpty() ? "." : folder, "conform");
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        // The newest build, release or debug, of the repository this jar (or class folder) is in.
        try {
            Path here = Paths.get(ReferenceDecoder.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path walk = here; walk != null; walk = walk.getParent()) {
                Path folder = walk;
                if (Files.isRegularFile(folder.resolve("Cargo.toml"))) {
                    Path found = List.of("release", "debug").stream()
                            .map(profile -> folder.resolve("target").resolve(profile).resolve("conform"))
                            .filter(Files::isRegularFile)
                            .max(Comparator.comparingLong(ReferenceDecoder::modified))
                            .orElse(null);
                    if (found != null) {
                        return found.toString();
                    }
                }
            }
        } catch (URISyntaxException | SecurityException err) {
            // fall through to the error below
        }
        throw new IOException("conform binary not found: set CONFORM_BIN or put conform on PATH");
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException err) {
            return Long.MIN_VALUE;
        }
    }
}
