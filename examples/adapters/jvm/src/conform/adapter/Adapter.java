package conform.adapter;

import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Serves a {@link Decoder} as a conform implementation: protocol v1 on stdin and stdout
 * (hello, run, bye), or one case in one-shot mode when the environment has {@code CONFORM_SUITE}
 * ({@code conform run --one-shot}).
 *
 * <p>stdout belongs to the protocol: while {@link #serve} runs, {@code System.out} writes to stderr,
 * so a stray {@code println} or logger cannot corrupt it. Cases are answered one at a time, in the
 * order they arrive; a request line the kit cannot read is answered at once with an {@code error}
 * result (see {@link #persistent}). Limits: a request line or one-shot input longer than
 * {@link #MAX_INPUT_BYTES} is not read (the request gets an {@code error} result; a one-shot case
 * exits 1); nesting deeper than {@link JsonReader#MAX_DEPTH} is refused.
 */
public final class Adapter {
    /** The protocol version this kit speaks. */
    public static final int PROTOCOL = 1;

    /**
     * Deepest nesting of a request line: a run request holds the input part one level down, so an
     * input part as deep as {@link JsonReader#MAX_DEPTH} (conform's own limit) still reads.
     */
    static final int MAX_REQUEST_DEPTH = JsonReader.MAX_DEPTH + 1;

    /** Longest request line (persistent mode) or input (one-shot mode) read, in bytes: 64 MiB. */
    public static final int MAX_INPUT_BYTES = 64 << 20;

    /**
     * Stack of the thread the decoder runs on: a recursive decoder can then walk inputs nested as
     * deep as {@link JsonReader#MAX_DEPTH}. The memory is reserved, and used only as deep as needed.
     */
    private static final long DECODER_STACK_BYTES = 512L << 20;

    private final String name;
    private final String version;
    private final String language;
    private final Map<String, List<Integer>> suites;
    private final Decoder decoder;
    private final PrintStream log;

    Adapter(String name, String version, String language, Map<String, List<Integer>> suites,
            Decoder decoder, PrintStream log) {
        this.name = name;
        this.version = version;
        this.language = language;
        this.suites = suites;
        this.decoder = decoder;
        this.log = log;
    }

    /**
     * Serves {@code decoder} until bye (persistent mode) or for one case (one-shot mode), then exits
     * the JVM with the status the protocol asks for.
     *
     * @param name the implementation's name, shown in every report
     * @param version its version
     * @param language its language ({@code "java"}, {@code "kotlin"}, …)
     * @param suites each suite implemented, with the fixtureVersions of it; cases of other suites
     *     or versions are {@code unsupported} and never sent
     * @param decoder the decode function
     */
    public static void serve(String name, String version, String language, Map<String, List<Integer>> suites,
            Decoder decoder) {
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        PrintStream log = System.err;
        System.setOut(log); // a stray println() must not corrupt the protocol
        Adapter adapter = new Adapter(name, version, language, suites, decoder, log);
        String suite = System.getenv("CONFORM_SUITE");
        int[] status = {1};
        Thread worker = new Thread(null, () -> {
            try {
                status[0] = suite != null
                        ? adapter.oneShot(System.in, protocol, suite, System.getenv("CONFORM_FIXTURE_VERSION"))
                        : adapter.persistent(System.in, protocol);
            } catch (IOException err) {
                log.println("conform adapter: " + err);
                status[0] = 1;
            }
        }, "conform-adapter", DECODER_STACK_BYTES);
        worker.start();
        while (true) {
            try {
                worker.join();
                break;
            } catch (InterruptedException err) {
                // keep waiting: the worker decides when the run is over
            }
        }
        log.flush();
        // Exit even if the decoder left threads or child processes running.
        System.exit(status[0]);
    }

    /**
     * The persistent protocol: answers hello and run requests until bye or the end of stdin. Every
     * line other than a blank one, hello or bye gets one result at once: a line this kit cannot read
     * (not JSON, not an object, too long, a run request without an integer id, an unknown op) gets
     * an {@code error} result with the id read from the line's start (see {@link #REQUEST_START}),
     * so the harness never waits for a reply that will not come.
     */
    int persistent(InputStream stdin, OutputStream stdout) throws IOException {
        LineReader lines = new LineReader(stdin);
        while (true) {
            Line line = lines.next(MAX_INPUT_BYTES);
            if (line == null) {
                return 0;
            }
            if (line.truncated()) {
                unreadable(stdout, line.bytes(), "the line is longer than " + MAX_INPUT_BYTES + " bytes");
                continue;
            }
            if (isBlank(line.bytes())) {
                continue;
            }
            Object parsed;
            try {
                parsed = JsonReader.parse(line.bytes(), MAX_REQUEST_DEPTH);
            } catch (JsonException err) {
                unreadable(stdout, line.bytes(), "the line is not JSON: " + err.getMessage());
                continue;
            }
            if (!(parsed instanceof Map)) {
                unreadable(stdout, line.bytes(), "the line is not a JSON object");
                continue;
            }
            Map<?, ?> message = (Map<?, ?>) parsed;
            Object op = message.get("op");
            if ("hello".equals(op)) {
                send(stdout, encodeHello());
            } else if ("bye".equals(op)) {
                return 0;
            } else if ("run".equals(op) && isInteger(message.get("id"))) {
                send(stdout, answer(message));
            } else if ("run".equals(op)) {
                unreadable(stdout, line.bytes(), "the run request has no integer id");
            } else {
                unreadable(stdout, line.bytes(), op instanceof String ? "unknown op \"" + op + "\"" : "the message has no op");
            }
        }
    }

    /**
     * How conform starts every run request line: {@code {"op":"run","id":N,…}}, with the id before
     * the input. A line whose rest this kit cannot read is answered with that id.
     */
    static final Pattern REQUEST_START =
            Pattern.compile("\\A\\s*\\{\\s*\"op\"\\s*:\\s*\"run\"\\s*,\\s*\"id\"\\s*:\\s*(\\d{1,15})(?=[\\s,}])");

    /**
     * The id of a request line read from its start (see {@link #REQUEST_START}), or 0 (an id conform
     * never uses, so the harness reports the case in flight as a protocol error at once) when it has none.
     */
    static long requestId(byte[] line) {
        String start = new String(line, 0, Math.min(line.length, 128), StandardCharsets.ISO_8859_1);
        Matcher matcher = REQUEST_START.matcher(start);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    /** Answers a line this kit cannot read with an {@code error} result, and notes why on stderr. */
    private void unreadable(OutputStream stdout, byte[] line, String why) throws IOException {
        log.println("conform adapter: cannot read a request: " + why);
        log.flush();
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("op", "result");
        reply.put("id", requestId(line));
        reply.put("error", "the adapter could not read the request: " + why);
        send(stdout, encodeReply(reply));
    }

    private String encodeHello() throws IOException {
        Map<String, Object> implementation = new LinkedHashMap<>();
        implementation.put("name", name);
        implementation.put("version", version);
        implementation.put("language", language);
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("op", "hello");
        hello.put("protocol", PROTOCOL);
        hello.put("implementation", implementation);
        hello.put("suites", suites);
        try {
            return JsonWriter.compact(hello);
        } catch (JsonException err) {
            throw new IOException("cannot write the hello (are the suites a map of lists of integers?): "
                    + err.getMessage(), err);
        }
    }

    /** The result line for one run request with an integer id. */
    private String answer(Map<?, ?> request) {
        Object id = request.get("id");
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("op", "result");
        reply.put("id", id);
        Object suite = request.get("suite");
        Object fixtureVersion = request.get("fixtureVersion");
        if (!(suite instanceof String) || !isInteger(fixtureVersion) || !request.containsKey("input")) {
            reply.put("error", "the run request lacks suite, fixtureVersion or input");
            return encodeReply(reply);
        }
        try {
            Object output = decoder.decode((String) suite, request.get("input"), ((Double) fixtureVersion).intValue());
            // Encoded here, so an output that is not JSON is this case's error rather than a crash;
            // spliced in as text, so it is encoded only once.
            String encoded = JsonWriter.compact(output);
            return "{\"op\":\"result\",\"id\":" + JsNumber.toString((Double) id) + ",\"output\":" + encoded + "}";
        } catch (Skip skip) {
            reply.put("skipped", String.valueOf(skip.reason()));
        } catch (JsonException err) {
            reply.put("error", "the output is not JSON: " + err.getMessage());
        } catch (Throwable err) { // the decoder failed on this case: an `error` verdict, not a crash
            err.printStackTrace(log);
            log.flush();
            reply.put("error", err.toString());
        }
        return encodeReply(reply);
    }

    /** A result holding strings and an id only, which always encodes. */
    private static String encodeReply(Map<String, Object> reply) {
        try {
            return JsonWriter.compact(reply);
        } catch (JsonException err) {
            throw new IllegalStateException("a result of strings failed to encode", err);
        }
    }

    /** One-shot mode: the input on stdin, the output on stdout; exit status 0 for an output. */
    int oneShot(InputStream stdin, OutputStream stdout, String suite, String fixtureVersionText) throws IOException {
        int fixtureVersion;
        try {
            fixtureVersion = fixtureVersionText == null ? 1 : Integer.parseInt(fixtureVersionText.trim());
        } catch (NumberFormatException err) {
            log.println("conform adapter: CONFORM_FIXTURE_VERSION is not an integer: " + fixtureVersionText);
            return 1;
        }
        byte[] text = stdin.readNBytes(MAX_INPUT_BYTES + 1);
        if (text.length > MAX_INPUT_BYTES) {
            log.println("conform adapter: the input is longer than " + MAX_INPUT_BYTES + " bytes");
            return 1;
        }
        try {
            Object output = decoder.decode(suite, JsonReader.parse(text), fixtureVersion);
            stdout.write((JsonWriter.compact(output) + "\n").getBytes(StandardCharsets.UTF_8));
            stdout.flush();
            return 0;
        } catch (Skip skip) {
            log.println("skipped: " + skip.reason());
        } catch (JsonException err) {
            log.println("conform adapter: " + err.getMessage());
        } catch (Throwable err) {
            err.printStackTrace(log);
        }
        return 1;
    }

    private static void send(OutputStream stdout, String message) throws IOException {
        // The writer escapes lone surrogates, so the text is well-formed UTF-16 and encodes exactly.
        stdout.write((message + "\n").getBytes(StandardCharsets.UTF_8));
        stdout.flush();
    }

    /** One input line without its {@code \n} (and a trailing {@code \r}); a truncated one holds its start. */
    record Line(byte[] bytes, boolean truncated) {}

    /** Splits an input stream into lines, scanning a buffer rather than reading byte by byte. */
    static final class LineReader {
        private final InputStream in;
        private final byte[] buffer = new byte[1 << 16];
        private int start;
        private int end;

        LineReader(InputStream in) {
            this.in = in;
        }

        /**
         * The next line, or null at the end of the input; of a line longer than {@code limit} bytes
         * only the first {@code limit} are kept (and it is marked truncated), the rest is skipped.
         */
        Line next(int limit) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean dropped = false;
            while (true) {
                if (start == end) {
                    end = in.read(buffer);
                    start = 0;
                    if (end <= 0) {
                        end = 0;
                        if (line.size() == 0 && !dropped) {
                            return null;
                        }
                        break;
                    }
                }
                int newline = start;
                while (newline < end && buffer[newline] != '\n') {
                    newline++;
                }
                int take = Math.min(newline - start, Math.max(0, limit - line.size()));
                line.write(buffer, start, take);
                dropped |= take < newline - start;
                boolean found = newline < end;
                start = found ? newline + 1 : end;
                if (found) {
                    break;
                }
            }
            byte[] bytes = line.toByteArray();
            if (dropped) {
                return new Line(bytes, true);
            }
            boolean crlf = bytes.length > 0 && bytes[bytes.length - 1] == '\r';
            return new Line(crlf ? Arrays.copyOf(bytes, bytes.length - 1) : bytes, false);
        }
    }

    private static boolean isBlank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static boolean isInteger(Object value) {
        return value instanceof Double && ((Double) value) == Math.rint((Double) value) && !((Double) value).isInfinite();
    }
}
