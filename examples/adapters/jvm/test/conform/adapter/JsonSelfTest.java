package conform.adapter;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tests of the kit's JSON reader and writer and of its protocol loop, with no test framework.
 *
 * <pre>
 * java -cp KIT:TEST conform.adapter.JsonSelfTest             # the unit tests: "N passed, N failed", exit 1 on a failure
 * java -cp KIT:TEST conform.adapter.JsonSelfTest numbers     # stdin: 16-hex-digit double bits per line; stdout: JSON numbers
 * java -cp KIT:TEST conform.adapter.JsonSelfTest strings     # stdin: UTF-16 code units in hex per line; stdout: JSON strings
 * java -cp KIT:TEST conform.adapter.JsonSelfTest canonical   # stdin: fixture paths; stdout: canonical texts
 * </pre>
 *
 * The last three modes let a test compare this kit's bytes with conform's own writer.
 */
public final class JsonSelfTest {
    /** Arrays nested as deep as the reader and writer allow. */
    private static final String DEEPEST = "[".repeat(JsonReader.MAX_DEPTH) + "]".repeat(JsonReader.MAX_DEPTH);

    private int passed;
    private int failed;

    private JsonSelfTest() {}

    /** Runs the mode named by the first argument (the unit tests when there is none). */
    public static void main(String[] args) throws IOException {
        String mode = args.length == 0 ? "unit" : args[0];
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        switch (mode) {
            case "unit":
                System.exit(new JsonSelfTest().run(out));
                break;
            case "numbers":
                for (String line; (line = in.readLine()) != null; ) {
                    out.println(write(Double.longBitsToDouble(Long.parseUnsignedLong(line.trim(), 16))));
                }
                break;
            case "strings":
                for (String line; (line = in.readLine()) != null; ) {
                    StringBuilder s = new StringBuilder();
                    for (String unit : line.trim().split(" ")) {
                        if (!unit.isEmpty()) {
                            s.append((char) Integer.parseInt(unit, 16));
                        }
                    }
                    out.println(write(s.toString()));
                }
                break;
            case "canonical":
                for (String path; (path = in.readLine()) != null; ) {
                    canonicalParts(out, path);
                }
                break;
            default:
                System.err.println("unknown mode " + mode + "; expected unit, numbers, strings or canonical");
                System.exit(2);
        }
        out.flush();
    }

    /**
     * For one fixture file: {@code == PATH} and the canonical text of the whole document, then
     * {@code == PATH#KEY} and the canonical text of each top-level {@code expected*} member.
     */
    private static void canonicalParts(PrintStream out, String path) throws IOException {
        try {
            Object document = JsonReader.parse(Files.readAllBytes(Paths.get(path)));
            out.print("== " + path + "\n" + JsonWriter.canonical(document));
            if (document instanceof Map) {
                for (Map.Entry<?, ?> member : ((Map<?, ?>) document).entrySet()) {
                    if (member.getKey().toString().startsWith("expected")) {
                        out.print("== " + path + "#" + member.getKey() + "\n" + JsonWriter.canonical(member.getValue()));
                    }
                }
            }
        } catch (JsonException err) {
            out.print("== " + path + "\nerror: " + err.getMessage() + "\n");
        }
    }

    private static String write(Object value) {
        try {
            return JsonWriter.compact(value);
        } catch (JsonException err) {
            return "error: " + err.getMessage();
        }
    }

    private int run(PrintStream out) {
        numbers();
        numbersRead();
        malformedNumbers();
        strings();
        malformedStrings();
        objectsAndOrder();
        depthAndErrors();
        writerRefusals();
        protocolLoop();
        lineSplitting();
        out.println("json self-test: " + passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    private void check(String what, Object actual, Object expected) {
        if (expected == null ? actual == null : expected.equals(actual)) {
            passed++;
        } else {
            failed++;
            System.err.println("FAIL " + what + ":\n  expected " + show(expected) + "\n  actual   " + show(actual));
        }
    }

    private static String show(Object value) {
        return value instanceof String ? write(value) : String.valueOf(value);
    }

    /** The compact text of {@code text} after a read: what a JavaScript round trip gives. */
    private static String roundTrip(String text) {
        try {
            return JsonWriter.compact(JsonReader.parse(text));
        } catch (JsonException err) {
            return "error: " + err.getMessage();
        }
    }

    /** The error message reading {@code text} gives, or "parsed" when it reads. */
    private static String readError(String text) {
        try {
            JsonReader.parse(text);
            return "parsed";
        } catch (JsonException err) {
            return err.getMessage();
        }
    }

    private void numbers() {
        Object[][] cases = {
            {1e2, "100"}, {1e21, "1e+21"}, {1e-7, "1e-7"}, {0.000001, "0.000001"}, {-0.0, "0"},
            {999999999999999900000.0, "999999999999999900000"}, {1e20, "100000000000000000000"},
            {0.1 + 0.2, "0.30000000000000004"}, {1.5e300, "1.5e+300"}, {5e-324, "5e-324"},
            {1755000000000.0, "1755000000000"}, {-4.21, "-4.21"}, {0.1, "0.1"}, {4.35, "4.35"},
            // Java 17's Double.toString writes 2.0000000000000002E23 here; JavaScript writes the shortest.
            {2e23, "2e+23"}, {1.7976931348623157e308, "1.7976931348623157e+308"}, {123e-20, "1.23e-18"},
            {2.2250738585072014e-308, "2.2250738585072014e-308"}, {9007199254740992.0, "9007199254740992"},
            {1152921504606846976.0, "1152921504606847000"}, {0.000001234, "0.000001234"},
            {1.234e-7, "1.234e-7"}, {Math.pow(2, -20), "9.5367431640625e-7"}, {123456.789, "123456.789"},
            {-1e-7, "-1e-7"}, {1e-6 * 1.5, "0.0000015"}, {5e-7, "5e-7"}, {1.0 / 3, "0.3333333333333333"},
            {Double.NaN, "null"}, {Double.POSITIVE_INFINITY, "null"}, {Double.NEGATIVE_INFINITY, "null"},
            {3, "3"}, {Long.MAX_VALUE, "9223372036854776000"}, {0.5f, "0.5"}, {(short) -7, "-7"},
            {new java.math.BigDecimal("1e21"), "1e+21"}, {new java.math.BigInteger("12345678901234567890"), "12345678901234567000"},
        };
        for (Object[] c : cases) {
            check("writes " + c[0] + " (" + c[0].getClass().getSimpleName() + ")", write(c[0]), c[1]);
        }
        check("Number::toString of NaN", JsNumber.toString(Double.NaN), "NaN");
        check("Number::toString of -Infinity", JsNumber.toString(Double.NEGATIVE_INFINITY), "-Infinity");
    }

    private void numbersRead() {
        String[][] cases = {
            {"12345678901234567890", "12345678901234567000"}, {"1e400", "null"}, {"-0", "0"}, {"-0.0e5", "0"},
            {"0.1e1", "1"}, {"1E+2", "100"}, {"1e-400", "0"}, {"[1.0,2.50,-3e0]", "[1,2.5,-3]"},
            {"9007199254740993", "9007199254740992"}, {"0.30000000000000004", "0.30000000000000004"},
            {"1.00000000000000011102230246251565404236316680908203125", "1"},
            {"1.00000000000000011102230246251565404236316680908203126", "1.0000000000000002"},
        };
        for (String[] c : cases) {
            check("reads " + c[0], roundTrip(c[0]), c[1]);
        }
        check("numbers read as Double", roundTrip("1").equals("1") && readDouble("7") instanceof Double, true);
    }

    private static Object readDouble(String text) {
        try {
            return JsonReader.parse(text);
        } catch (JsonException err) {
            return err;
        }
    }

    private void malformedNumbers() {
        for (String text : new String[] {"01", "1.", ".5", "+1", "-", "1e", "1e+", "NaN", "Infinity", "0x10", "1_000", "--1", "1.e5"}) {
            check("refuses the number " + text, readError(text).equals("parsed"), false);
        }
    }

    private void strings() {
        check("JSON.stringify escapes",
                write("\"\\\b\t\n\f\r\u0001\u001f\u007f/\u2028\u2029é"),
                "\"\\\"\\\\\\b\\t\\n\\f\\r\\u0001\\u001f\u007f/\u2028\u2029é\"");
        check("lone surrogates survive", roundTrip("[\"\\ud800x\",\"\\uDC00\"]"), "[\"\\ud800x\",\"\\udc00\"]");
        check("an escaped pair is one character", roundTrip("\"\\uD83D\\uDE00\""), "\"\uD83D\uDE00\"");
        check("a raw pair stays", roundTrip("\"\uD83D\uDE00\""), "\"\uD83D\uDE00\"");
        check("a reversed pair is two lone surrogates", roundTrip("\"\\ude00\\ud83d\""), "\"\\ude00\\ud83d\"");
        check("a surrogate at the end", write("a\uD83D"), "\"a\\ud83d\"");
        check("escapes are decoded", roundTrip("\"\\u0041\\/\\u00e9\\u2028\\u0000\""), "\"A/é\u2028\\u0000\"");
        check("an escaped backslash before u is text", roundTrip("\"x\\\\ud800\""), "\"x\\\\ud800\"");
        check("a character is a string", write('q'), "\"q\"");
        try {
            Object parsed = JsonReader.parse("\"é\uD83D\uDE00\"".getBytes(StandardCharsets.UTF_8));
            check("UTF-8 bytes read", parsed, "é\uD83D\uDE00");
        } catch (JsonException err) {
            check("UTF-8 bytes read", err.getMessage(), "parsed");
        }
        try {
            JsonReader.parse(new byte[] {'"', (byte) 0xC3, '"'});
            check("malformed UTF-8 is refused", "parsed", "refused");
        } catch (JsonException err) {
            check("malformed UTF-8 is refused", err.getMessage(), "line 1, column 1: the text is not UTF-8");
        }
    }

    private void malformedStrings() {
        for (String text : new String[] {"\"a\nb\"", "\"\\x\"", "\"abc", "\"\\u12G4\"", "\"\\u12\"", "'a'", "\"\\", "\"\t\""}) {
            check("refuses the string " + write(text), readError(text).equals("parsed"), false);
        }
    }

    private void objectsAndOrder() {
        try {
            Object value = JsonReader.parse("{\"b\":[1,{}],\"10\":[],\"9\":{\"z\":null,\"a\":true},\"a\":\"x\"}");
            check("canonical layout and order", JsonWriter.canonical(value),
                    "{\n    \"9\": {\n        \"a\": true,\n        \"z\": null\n    },\n    \"10\": [],\n    \"a\": \"x\",\n"
                            + "    \"b\": [\n        1,\n        {}\n    ]\n}\n");
            check("order as read", JsonWriter.write(value, 0, KeyOrder.AS_GIVEN),
                    "{\"b\":[1,{}],\"10\":[],\"9\":{\"z\":null,\"a\":true},\"a\":\"x\"}");
            Object stringify = JsonReader.parse("{\"type\":\"result\",\"n\":1e21,\"s\":\"é\\u0007\",\"10\":true,\"2\":[]}");
            check("JSON.stringify(value, null, 2)", JsonWriter.write(stringify, 2, KeyOrder.JAVASCRIPT),
                    "{\n  \"2\": [],\n  \"10\": true,\n  \"type\": \"result\",\n  \"n\": 1e+21,\n  \"s\": \"é\\u0007\"\n}");
            check("duplicate keys: first position, last value", roundTrip("{\"b\":1,\"a\":2,\"b\":3}"), "{\"b\":3,\"a\":2}");
            check("UTF-16 order above the BMP", JsonWriter.write(JsonReader.parse("{\"\uFF01\":1,\"\uD83D\uDE00\":2}"), 0, KeyOrder.CANONICAL),
                    "{\"\uD83D\uDE00\":2,\"\uFF01\":1}");
            check("index-like keys", JsonWriter.write(JsonReader.parse(
                    "{\"01\":0,\"4294967295\":0,\"4294967294\":0,\"-1\":0,\"0\":0,\"b\":0,\"a\":0}"), 0, KeyOrder.JAVASCRIPT),
                    "{\"0\":0,\"4294967294\":0,\"01\":0,\"4294967295\":0,\"-1\":0,\"b\":0,\"a\":0}");
            check("empty containers", JsonWriter.canonical(JsonReader.parse(" { \"a\" : [ ] , \"b\" : { } } ")),
                    "{\n    \"a\": [],\n    \"b\": {}\n}\n");
            check("scalars at the top", roundTrip(" true "), "true");
            check("null at the top", roundTrip("null"), "null");
        } catch (JsonException err) {
            check("objects and order", err.getMessage(), "parsed");
        }
    }

    private void depthAndErrors() {
        check("10,000 levels read and write", roundTrip(DEEPEST), DEEPEST);
        String deeperObjects = "{\"a\":".repeat(JsonReader.MAX_DEPTH) + "1" + "}".repeat(JsonReader.MAX_DEPTH);
        check("10,000 object levels", roundTrip(deeperObjects), deeperObjects);
        check("deeper is refused with a position",
                readError("[".repeat(50_000) + "]".repeat(50_000)), "line 1, column 10001: nesting deeper than 10000 levels");
        check("brackets in strings do not count", readError("[\"" + "[".repeat(20_000) + "\"]"), "parsed");
        check("line and column", readError("{\n  \"a\": 1,\n  \"b\" 2\n}"),
                "line 3, column 7: expected `:` after an object key, found `2`");
        check("text after the value", readError("{} x"), "line 1, column 4: unexpected text after the JSON value");
        check("the end inside a value", readError("[1, 2"), "line 1, column 6: expected `,` or `]`, found the end of the text");
        check("empty text", readError(" \n"), "line 2, column 1: expected a JSON value, found the end of the text");
        for (String text : new String[] {"[1,]", "{\"a\":1,}", "{a:1}", "[1 2]", "{\"a\" 1}", "tru", "nul", "[", "{", "]", "/* */ 1", "\uFEFF1"}) {
            check("refuses " + write(text), readError(text).equals("parsed"), false);
        }
    }

    private void writerRefusals() {
        check("a Java object is no JSON value", write(List.of(Map.of("a/b~", List.of(1, new Object())))).startsWith(
                "error: at /0/a~1b~0/1: a java.lang.Object is not a JSON value"), true);
        Map<Object, Object> numberKeys = new LinkedHashMap<>();
        numberKeys.put(1, "x");
        check("keys must be strings", write(numberKeys), "error: at the top level: object keys must be strings, found java.lang.Integer");
        List<Object> cycle = new ArrayList<>();
        cycle.add(cycle);
        check("a list that contains itself", write(cycle).contains("nesting deeper than 10000 levels"), true);
        check("object arrays are arrays", write(new Object[] {"a", null, true}), "[\"a\",null,true]");
    }

    /** Lines across buffer boundaries, CRLF, a last line without newline, over-long lines dropped whole. */
    private void lineSplitting() {
        String big = "x".repeat(200_000);
        String text = "a\r\n" + big + "\n" + "y".repeat(50) + "\nshort\n\nlast";
        Adapter.LineReader lines = new Adapter.LineReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        List<String> read = new ArrayList<>();
        try {
            for (Adapter.Line line; (line = lines.next(100_000)) != null; ) {
                read.add(line.truncated() ? "(too long: " + line.bytes().length + ")" : new String(line.bytes(), StandardCharsets.UTF_8));
            }
            check("line splitting", read, List.of("a", "(too long: 100000)", "y".repeat(50), "short", "", "last"));
            Adapter.LineReader exact = new Adapter.LineReader(new ByteArrayInputStream((big + "\n").getBytes(StandardCharsets.UTF_8)));
            Adapter.Line whole = exact.next(big.length());
            check("a line of exactly the limit is read", whole.bytes().length + " " + whole.truncated(), big.length() + " false");
            check("then the end", exact.next(big.length()), null);
        } catch (IOException err) {
            check("line splitting", err.toString(), "no exception");
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The persistent loop and one-shot mode, driven through in-memory streams. */
    private void protocolLoop() {
        Decoder decoder = (suite, input, version) -> {
            if (input instanceof List) {
                return input;
            }
            Map<?, ?> in = (Map<?, ?>) input;
            if (in.containsKey("skip")) {
                throw new Skip("declined: " + in.get("skip"));
            }
            if (in.containsKey("fail")) {
                throw new IllegalStateException("no " + in.get("fail"));
            }
            if (in.containsKey("object")) {
                return new Object();
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("suite", suite);
            out.put("version", version);
            out.put("echo", input);
            return out;
        };
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Adapter adapter = new Adapter("t", "1", "java", Map.of("chat", List.of(1)), decoder,
                new PrintStream(log, true, StandardCharsets.UTF_8));
        String requests = "{\"op\":\"hello\",\"protocol\":1,\"harness\":{\"name\":\"conform\",\"version\":\"0\"}}\r\n"
                + "\n   \nnot json\n[1]\n"
                + "{\"op\":\"run\",\"id\":9,\"suite\":\"chat\",\"input\":{\"s\":\"\\ud800\\x\"}}\n"
                + "{\"op\":\"run\",\"id\":1,\"suite\":\"chat\",\"fixture\":\"x\",\"fixtureVersion\":1,\"input\":{\"n\":1e21,\"s\":\"\\ud800\"}}\n"
                + "{\"op\":\"run\",\"id\":2,\"suite\":\"chat\",\"fixture\":\"x\",\"fixtureVersion\":1,\"input\":{\"skip\":\"why\"}}\n"
                + "{\"op\":\"run\",\"id\":3,\"suite\":\"chat\",\"fixture\":\"x\",\"fixtureVersion\":1,\"input\":{\"fail\":\"luck\"}}\n"
                + "{\"op\":\"run\",\"id\":4,\"suite\":\"chat\",\"fixture\":\"x\",\"fixtureVersion\":1,\"input\":{\"object\":1}}\n"
                + "{\"op\":\"run\",\"id\":5,\"suite\":\"chat\",\"fixture\":\"x\",\"fixtureVersion\":1}\n"
                + "{\"op\":\"run\",\"id\":8,\"suite\":\"chat\",\"fixture\":\"x\",\"fixtureVersion\":1,\"input\":" + DEEPEST + "}\n"
                + "{\"op\":\"run\",\"suite\":\"chat\"}\n"
                + "{\"op\":\"bye\"}\n"
                + "{\"op\":\"run\",\"id\":6,\"suite\":\"chat\",\"fixture\":\"x\",\"fixtureVersion\":1,\"input\":{}}\n";
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        try {
            int status = adapter.persistent(new ByteArrayInputStream(requests.getBytes(StandardCharsets.UTF_8)), stdout);
            check("persistent: exit status after bye", status, 0);
        } catch (IOException err) {
            check("persistent mode", err.toString(), "no exception");
        }
        String[] lines = stdout.toString(StandardCharsets.UTF_8).split("\n", -1);
        check("persistent: one line per request, none after bye", lines.length, 12);
        check("persistent: hello", lines[0],
                "{\"op\":\"hello\",\"protocol\":1,\"implementation\":{\"name\":\"t\",\"version\":\"1\",\"language\":\"java\"},\"suites\":{\"chat\":[1]}}");
        check("persistent: a line that is not JSON, at once", lines[1],
                "{\"op\":\"result\",\"id\":0,\"error\":\"the adapter could not read the request: the line is not JSON: "
                + "line 1, column 1: expected `null`\"}");
        check("persistent: a line that is not an object", lines[2],
                "{\"op\":\"result\",\"id\":0,\"error\":\"the adapter could not read the request: the line is not a JSON object\"}");
        check("persistent: an unreadable run request keeps its id", lines[3].startsWith(
                "{\"op\":\"result\",\"id\":9,\"error\":\"the adapter could not read the request: the line is not JSON: "), true);
        lines = Arrays.copyOfRange(lines, 3, lines.length);
        check("request id: conform's start", Adapter.requestId(utf8("{\"op\":\"run\",\"id\":42,\"suite\":")), 42L);
        check("request id: spaces", Adapter.requestId(utf8(" { \"op\" : \"run\" , \"id\" : 7 }")), 7L);
        check("request id: not an integer", Adapter.requestId(utf8("{\"op\":\"run\",\"id\":1.5,")), 0L);
        check("request id: another order", Adapter.requestId(utf8("{\"id\":3,\"op\":\"run\",")), 0L);
        check("persistent: output", lines[1],
                "{\"op\":\"result\",\"id\":1,\"output\":{\"suite\":\"chat\",\"version\":1,\"echo\":{\"n\":1e+21,\"s\":\"\\ud800\"}}}");
        check("persistent: skipped", lines[2], "{\"op\":\"result\",\"id\":2,\"skipped\":\"declined: why\"}");
        check("persistent: error", lines[3], "{\"op\":\"result\",\"id\":3,\"error\":\"java.lang.IllegalStateException: no luck\"}");
        check("persistent: an output that is not JSON", lines[4],
                "{\"op\":\"result\",\"id\":4,\"error\":\"the output is not JSON: at the top level: a java.lang.Object is not a JSON value\"}");
        check("persistent: a request without input", lines[5],
                "{\"op\":\"result\",\"id\":5,\"error\":\"the run request lacks suite, fixtureVersion or input\"}");
        check("persistent: an input part 10,000 levels deep", lines[6],
                "{\"op\":\"result\",\"id\":8,\"output\":" + DEEPEST + "}");
        check("persistent: a run request without an id", lines[7],
                "{\"op\":\"result\",\"id\":0,\"error\":\"the adapter could not read the request: the run request has no integer id\"}");
        check("persistent: ends with a newline", lines[8], "");
        String logged = log.toString(StandardCharsets.UTF_8);
        check("persistent: notes go to the log", logged.contains("cannot read a request: the line is not JSON")
                && logged.contains("not a JSON object") && logged.contains("no integer id")
                && logged.contains("IllegalStateException: no luck\n\tat "), true);

        ByteArrayOutputStream oneShotOut = new ByteArrayOutputStream();
        try {
            byte[] input = "{\"a\":[1,2.5]}".getBytes(StandardCharsets.UTF_8);
            check("one-shot: status", adapter.oneShot(new ByteArrayInputStream(input), oneShotOut, "chat", "1"), 0);
            check("one-shot: output", oneShotOut.toString(StandardCharsets.UTF_8),
                    "{\"suite\":\"chat\",\"version\":1,\"echo\":{\"a\":[1,2.5]}}\n");
            byte[] skip = "{\"skip\":\"no\"}".getBytes(StandardCharsets.UTF_8);
            check("one-shot: a skip exits 1", adapter.oneShot(new ByteArrayInputStream(skip), new ByteArrayOutputStream(), "chat", "1"), 1);
            check("one-shot: the skip reason on stderr", log.toString(StandardCharsets.UTF_8).contains("skipped: declined: no\n"), true);
            byte[] broken = "{\"a\":".getBytes(StandardCharsets.UTF_8);
            check("one-shot: input that is not JSON exits 1", adapter.oneShot(new ByteArrayInputStream(broken), new ByteArrayOutputStream(), "chat", "1"), 1);
            check("one-shot: a bad fixture version exits 1", adapter.oneShot(new ByteArrayInputStream(input), new ByteArrayOutputStream(), "chat", "x"), 1);
        } catch (IOException err) {
            check("one-shot mode", err.toString(), "no exception");
        }
    }
}
