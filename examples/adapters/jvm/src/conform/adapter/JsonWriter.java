package conform.adapter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes plain Java values as JSON text, byte for byte as JavaScript writes them.
 *
 * <p>Accepted values: {@code null}; {@code Boolean}; any {@code Number} (written as the double it
 * rounds to, as JavaScript holds every number, with {@link JsNumber}; NaN and infinities are written
 * as {@code null}, as {@code JSON.stringify} does); {@code CharSequence} and {@code Character};
 * {@code Map} with string keys; {@code Iterable} and object arrays. Anything else, a non-string key,
 * or nesting deeper than {@link JsonReader#MAX_DEPTH} (a map or list that contains itself, say) is
 * a {@link JsonException} naming the JSON pointer of the value.
 *
 * <p>Strings are escaped as {@code JSON.stringify} escapes them: {@code \"}, {@code \\}, {@code \b},
 * {@code \f}, {@code \n}, {@code \r}, {@code \t}, other control characters as lowercase
 * <code>&#92;u00xx</code>, lone surrogates as lowercase <code>&#92;udxxx</code>; everything else (non-ASCII, U+2028,
 * {@code /}) is written as it is. Writing is iterative, so no value can overflow the stack.
 */
public final class JsonWriter {
    private final int indent;
    private final KeyOrder order;
    private final StringBuilder out = new StringBuilder();

    private JsonWriter(int indent, KeyOrder order) {
        this.indent = indent;
        this.order = order;
    }

    /** One line, keys in JavaScript's order: what {@code JSON.stringify(value)} writes. */
    public static String compact(Object value) throws JsonException {
        return write(value, 0, KeyOrder.JAVASCRIPT);
    }

    /**
     * The fixture files' canonical text: 4-space indent, keys in canonical order, {@code ": "} after
     * keys, LF line endings and one trailing newline.
     */
    public static String canonical(Object value) throws JsonException {
        return write(value, 4, KeyOrder.CANONICAL) + "\n";
    }

    /**
     * {@code indent} spaces per level (0: one line with no whitespace) and keys in {@code order};
     * no trailing newline. {@code write(v, 2, KeyOrder.JAVASCRIPT)} is {@code JSON.stringify(v, null, 2)}.
     */
    public static String write(Object value, int indent, KeyOrder order) throws JsonException {
        JsonWriter writer = new JsonWriter(indent, order);
        writer.value(value);
        return writer.out.toString();
    }

    /** An array or object being written: what is left of it, and the member being written. */
    private static final class Open {
        final Iterator<?> items; // the members of an array, or the keys of an object
        final Map<?, ?> object; // null for an array
        int index; // members started so far
        String key; // of an object: the key of the member being written

        Open(Iterator<?> items, Map<?, ?> object) {
            this.items = items;
            this.object = object;
        }
    }

    private void value(Object root) throws JsonException {
        Deque<Open> open = new ArrayDeque<>();
        Object value = root;
        while (true) {
            Open opened = scalarOrOpen(value, open);
            if (opened != null) {
                open.push(opened);
            }
            // Find the next member to write, closing every container that has none left.
            Open top;
            while (true) {
                top = open.peek();
                if (top == null) {
                    return;
                }
                if (top.items.hasNext()) {
                    break;
                }
                open.pop();
                if (top.index > 0) {
                    newline(open.size());
                }
                out.append(top.object == null ? ']' : '}');
            }
            if (top.index > 0) {
                out.append(',');
            }
            newline(open.size());
            Object item = top.items.next();
            if (top.object == null) {
                value = item;
            } else {
                String key = (String) item;
                top.key = key;
                string(key);
                out.append(indent > 0 ? ": " : ":");
                value = top.object.get(key);
            }
            top.index++;
        }
    }

    /** Writes a scalar; for an array or object writes its opening bracket and returns it. */
    private Open scalarOrOpen(Object value, Deque<Open> open) throws JsonException {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean) {
            out.append(((Boolean) value) ? "true" : "false");
        } else if (value instanceof Number) {
            double number = ((Number) value).doubleValue();
            out.append(Double.isFinite(number) ? JsNumber.toString(number) : "null");
        } else if (value instanceof CharSequence || value instanceof Character) {
            string(value.toString());
        } else if (value instanceof Map || value instanceof Iterable || value instanceof Object[]) {
            if (open.size() == JsonReader.MAX_DEPTH) {
                throw new JsonException(
                        "nesting deeper than " + JsonReader.MAX_DEPTH + " levels (does a value contain itself?)",
                        pointer(open));
            }
            if (value instanceof Map) {
                Map<?, ?> map = (Map<?, ?>) value;
                List<String> keys = new ArrayList<>(map.size());
                for (Object key : map.keySet()) {
                    if (!(key instanceof String)) {
                        throw new JsonException(
                                "object keys must be strings, found " + (key == null ? "null" : key.getClass().getName()),
                                pointer(open));
                    }
                    keys.add((String) key);
                }
                out.append('{');
                return new Open(order.arrange(keys).iterator(), map);
            }
            Iterable<?> items = value instanceof Iterable ? (Iterable<?>) value : Arrays.asList((Object[]) value);
            out.append('[');
            return new Open(items.iterator(), null);
        } else {
            throw new JsonException("a " + value.getClass().getName() + " is not a JSON value", pointer(open));
        }
        return null;
    }

    /** The JSON pointer of the value being written (built only for an error message). */
    private static String pointer(Deque<Open> open) {
        StringBuilder pointer = new StringBuilder();
        for (Iterator<Open> outermostFirst = open.descendingIterator(); outermostFirst.hasNext(); ) {
            Open container = outermostFirst.next();
            pointer.append('/');
            if (container.object == null) {
                pointer.append(container.index - 1);
            } else {
                pointer.append(container.key.replace("~", "~0").replace("/", "~1"));
            }
        }
        return pointer.toString();
    }

    private void newline(int depth) {
        if (indent == 0) {
            return;
        }
        out.append('\n');
        for (int i = depth * indent; i > 0; i--) {
            out.append(' ');
        }
    }

    private void string(String s) {
        out.append('"');
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        hexEscape(c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        hexEscape(c); // a lone surrogate, as JSON.stringify writes it
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    private void hexEscape(char c) {
        String hex = Integer.toHexString(c);
        out.append("\\u");
        for (int pad = hex.length(); pad < 4; pad++) {
            out.append('0');
        }
        out.append(hex);
    }
}
