package conform.adapter;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON as {@code JSON.parse} does, into plain Java values.
 *
 * <ul>
 *   <li>objects become {@code LinkedHashMap<String, Object>} in the order read; a repeated key keeps
 *       its first position and its last value, as in JavaScript;
 *   <li>arrays become {@code ArrayList<Object>};
 *   <li>every number becomes a {@code Double}, rounded to the nearest double as JavaScript rounds it
 *       (so {@code 12345678901234567890} reads as 12345678901234567000, and {@code 1e400} as
 *       infinity);
 *   <li>strings become {@code String}s; a <code>&#92;ud800</code> escape without its partner stays a lone
 *       surrogate, which {@link JsonWriter} writes back as <code>&#92;ud800</code>;
 *   <li>{@code true}/{@code false} become {@code Boolean}s and {@code null} becomes {@code null}.
 * </ul>
 *
 * <p>The grammar is strict RFC 8259, like {@code JSON.parse}: no comments, trailing commas, single
 * quotes, raw control characters in strings, or text after the value. Reading is iterative, so no
 * input can overflow the stack; nesting deeper than {@link #MAX_DEPTH} is refused.
 */
public final class JsonReader {
    /** Deepest nesting of arrays and objects accepted (the limit conform itself reads fixtures with). */
    public static final int MAX_DEPTH = 10_000;

    private final String text;
    private final int maxDepth;
    private int at;

    private JsonReader(String text, int maxDepth) {
        this.text = text;
        this.maxDepth = maxDepth;
    }

    /** Reads exactly one JSON value from UTF-8 bytes; malformed UTF-8 is an error. */
    public static Object parse(byte[] utf8) throws JsonException {
        return parse(utf8, MAX_DEPTH);
    }

    /** Reads exactly one JSON value from {@code text}. */
    public static Object parse(String text) throws JsonException {
        return parse(text, MAX_DEPTH);
    }

    /** Reads exactly one JSON value from {@code text}, nested at most {@code maxDepth} levels. */
    public static Object parse(String text, int maxDepth) throws JsonException {
        return new JsonReader(text, maxDepth).document();
    }

    /** Reads one JSON value from UTF-8 bytes, nested at most {@code maxDepth} levels. */
    public static Object parse(byte[] utf8, int maxDepth) throws JsonException {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(utf8))
                    .toString();
        } catch (CharacterCodingException err) {
            throw new JsonException("the text is not UTF-8", 1, 1);
        }
        return parse(text, maxDepth);
    }

    /** An array or object being read, and for an object the key whose value comes next. */
    private static final class Open {
        final List<Object> array;
        final Map<String, Object> object;
        String key;

        Open(List<Object> array, Map<String, Object> object) {
            this.array = array;
            this.object = object;
        }
    }

    private Object document() throws JsonException {
        skipWhitespace();
        if (at == text.length()) {
            throw error("expected a JSON value, found the end of the text");
        }
        Deque<Open> open = new ArrayDeque<>();
        while (true) {
            // Read one value; an opening bracket pushes a container and loops to read its first member.
            skipWhitespace();
            Object value;
            char c = peek();
            if (c == '{' || c == '[') {
                if (open.size() == maxDepth) {
                    throw error("nesting deeper than " + maxDepth + " levels");
                }
                at++;
                skipWhitespace();
                if (c == '{') {
                    Open object = new Open(null, new LinkedHashMap<>());
                    if (peek() != '}') {
                        object.key = memberKey();
                        open.push(object);
                        continue;
                    }
                    at++;
                    value = object.object;
                } else {
                    Open array = new Open(new ArrayList<>(), null);
                    if (peek() != ']') {
                        open.push(array);
                        continue;
                    }
                    at++;
                    value = array.array;
                }
            } else {
                value = scalar();
            }
            // Store the value, then close every container that ends after it.
            while (true) {
                Open top = open.peek();
                if (top == null) {
                    skipWhitespace();
                    if (at < text.length()) {
                        throw error("unexpected text after the JSON value");
                    }
                    return value;
                }
                if (top.array != null) {
                    top.array.add(value);
                } else {
                    top.object.put(top.key, value);
                }
                skipWhitespace();
                char next = peek();
                if (next == ',') {
                    at++;
                    if (top.object != null) {
                        skipWhitespace();
                        top.key = memberKey();
                    }
                    break;
                }
                char close = top.array != null ? ']' : '}';
                if (next != close) {
                    throw error("expected `,` or `" + close + "`, found " + describe(next));
                }
                at++;
                open.pop();
                value = top.array != null ? top.array : top.object;
            }
        }
    }

    private String memberKey() throws JsonException {
        if (peek() != '"') {
            throw error("expected a string key, found " + describe(peek()));
        }
        String key = string();
        skipWhitespace();
        if (peek() != ':') {
            throw error("expected `:` after an object key, found " + describe(peek()));
        }
        at++;
        return key;
    }

    private Object scalar() throws JsonException {
        char c = peek();
        switch (c) {
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("expected a JSON value, found " + describe(c));
        }
    }

    private Object literal(String word, Object value) throws JsonException {
        if (!text.startsWith(word, at)) {
            throw error("expected `" + word + "`");
        }
        at += word.length();
        return value;
    }

    private Double number() throws JsonException {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        if (peek() == '0') {
            at++;
        } else if (!digits()) {
            throw error("expected a digit");
        }
        if (peek() == '.') {
            at++;
            if (!digits()) {
                throw error("expected a digit after `.`");
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            at++;
            if (peek() == '+' || peek() == '-') {
                at++;
            }
            if (!digits()) {
                throw error("expected a digit in the exponent");
            }
        }
        // The grammar above is JSON's; Double.parseDouble rounds correctly (nearest, ties to even),
        // as JSON.parse does, and gives infinity for out-of-range magnitudes.
        return Double.parseDouble(text.substring(start, at));
    }

    private boolean digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        return at > start;
    }

    private String string() throws JsonException {
        at++; // the opening quote
        StringBuilder out = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(at);
            if (c == '"') {
                at++;
                return out.toString();
            }
            if (c < 0x20) {
                throw error("control character U+" + String.format("%04X", (int) c) + " in a string must be escaped");
            }
            if (c != '\\') {
                out.append(c);
                at++;
                continue;
            }
            at++;
            char escaped = peek();
            at++;
            switch (escaped) {
                case '"':
                    out.append('"');
                    break;
                case '\\':
                    out.append('\\');
                    break;
                case '/':
                    out.append('/');
                    break;
                case 'b':
                    out.append('\b');
                    break;
                case 'f':
                    out.append('\f');
                    break;
                case 'n':
                    out.append('\n');
                    break;
                case 'r':
                    out.append('\r');
                    break;
                case 't':
                    out.append('\t');
                    break;
                case 'u':
                    // One UTF-16 code unit; a lone surrogate stays as it is, as in JavaScript.
                    out.append(hexUnit());
                    break;
                default:
                    at--;
                    throw error("invalid escape `\\" + (at < text.length() ? String.valueOf(escaped) : "") + "`");
            }
        }
    }

    private char hexUnit() throws JsonException {
        if (at + 4 > text.length()) {
            throw error("expected four hex digits after `\\u`");
        }
        int unit = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(at + i), 16);
            if (digit < 0 || text.charAt(at + i) > 'f') {
                throw error("expected four hex digits after `\\u`");
            }
            unit = unit * 16 + digit;
        }
        at += 4;
        return (char) unit;
    }

    private void skipWhitespace() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    /** The character at the cursor, or U+FFFF (never valid there) at the end of the text. */
    private char peek() {
        return at < text.length() ? text.charAt(at) : '\uffff';
    }

    private String describe(char c) {
        return at >= text.length() ? "the end of the text" : "`" + c + "`";
    }

    private JsonException error(String message) {
        int line = 1;
        int lineStart = 0;
        int end = Math.min(at, text.length());
        for (int i = 0; i < end; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new JsonException(message, line, end - lineStart + 1);
    }
}
